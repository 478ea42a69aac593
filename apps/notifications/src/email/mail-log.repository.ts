import { Injectable } from '@nestjs/common';
import { asc, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { mailLog } from '../db/schema.js';

/** The only SQL of the mail log's reads. */
@Injectable()
export class MailLogRepository {
  /** Every email sent (or tried) to an address, case-insensitively, oldest first. */
  sentTo(db: Database, address: string) {
    return db
      .select()
      .from(mailLog)
      .where(sql`lower(${mailLog.recipient}) = ${address.trim().toLowerCase()}`)
      .orderBy(asc(mailLog.createdAt));
  }

  /** Forgets every email sent (or tried) to an address, case-insensitively. */
  async forget(db: Database | Transaction, address: string): Promise<void> {
    await db.delete(mailLog).where(sql`lower(${mailLog.recipient}) = ${address.trim().toLowerCase()}`);
  }
}
