import { Injectable } from '@nestjs/common';
import { and, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { mailLog } from '../db/schema.js';

const MailOldestFirst: Keyset = { at: mailLog.createdAt, id: mailLog.id, order: 'oldest-first' };

/** The only SQL of the mail log's reads. */
@Injectable()
export class MailLogRepository {
  /** A page of the emails sent (or tried) to an address, case-insensitively, oldest first: `limit + 1` at most. */
  async sentToPage(db: Database, address: string, start: KeysetPosition | null, limit: number) {
    const rows = await db
      .select({ row: mailLog, position: positionOf(mailLog.createdAt) })
      .from(mailLog)
      .where(and(sql`lower(${mailLog.recipient}) = ${address.trim().toLowerCase()}`, after(MailOldestFirst, start)))
      .orderBy(...orderOf(MailOldestFirst))
      .limit(limit + 1);
    return rows.map((r) => ({ ...r.row, position: r.position }));
  }

  /** Forgets every email sent (or tried) to an address, case-insensitively. */
  async forget(db: Database | Transaction, address: string): Promise<void> {
    await db.delete(mailLog).where(sql`lower(${mailLog.recipient}) = ${address.trim().toLowerCase()}`);
  }
}
