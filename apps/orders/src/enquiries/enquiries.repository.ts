import { Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import type { SubmitEnquiryRequest } from '@digicard/contracts';
import { asc, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { enquiries } from '../db/schema.js';

export type EnquiryRow = typeof enquiries.$inferSelect;

@Injectable()
export class EnquiriesRepository {
  /** The stored enquiry, or null when one with the same idempotency key is stored already. */
  async insert(tx: Transaction, id: string, enquiry: SubmitEnquiryRequest): Promise<EnquiryRow | null> {
    const [row] = await tx
      .insert(enquiries)
      .values({
        id,
        kind: enquiry.kind,
        name: enquiry.name,
        email: enquiry.email,
        phone: enquiry.kind === 'message' ? null : enquiry.number,
        message: enquiry.kind === 'call-back' ? null : enquiry.message || null,
        company: enquiry.kind === 'quote' ? enquiry.company : null,
        teamSize: enquiry.kind === 'quote' ? enquiry.teamSize : null,
        idempotencyKey: enquiry.idempotencyKey ?? null,
      })
      // A submission with the key of one stored already is not stored again (waits for a concurrent one to commit).
      .onConflictDoNothing({ target: enquiries.idempotencyKey })
      .returning();
    return row ?? null;
  }

  async byIdempotencyKey(tx: Transaction, key: string): Promise<EnquiryRow | null> {
    const [row] = await tx.select().from(enquiries).where(eq(enquiries.idempotencyKey, key)).limit(1);
    return row ?? null;
  }

  /** The enquiries sent under an address (case-insensitively), oldest first: what we hold about its owner. */
  async byEmail(db: Database | Transaction, email: string): Promise<EnquiryRow[]> {
    return db
      .select()
      .from(enquiries)
      .where(sql`lower(${enquiries.email}) = ${email.trim().toLowerCase()}`)
      .orderBy(asc(enquiries.createdAt));
  }

  /** Forgets every enquiry sent under an address, case-insensitively. */
  async forgetEmail(db: Database | Transaction, email: string): Promise<void> {
    await db.delete(enquiries).where(sql`lower(${enquiries.email}) = ${email.trim().toLowerCase()}`);
  }
}
