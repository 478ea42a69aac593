import { Injectable } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import type { SubmitEnquiryRequest } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { enquiries } from '../db/schema.js';

export type EnquiryRow = typeof enquiries.$inferSelect;
/** The data export lists an address's enquiries oldest first. */
const EnquiriesOldestFirst: Keyset = { at: enquiries.createdAt, id: enquiries.id, order: 'oldest-first' };

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

  /**
   * A page of the enquiries sent under an address (case-insensitively), oldest first: what we hold about its owner;
   * `limit + 1` at most, after `start`.
   */
  async pageByEmail(
    db: Database | Transaction,
    email: string,
    start: KeysetPosition | null,
    limit: number,
  ): Promise<Array<EnquiryRow & { position: string }>> {
    const rows = await db
      .select({ enquiry: enquiries, position: positionOf(enquiries.createdAt) })
      .from(enquiries)
      .where(and(sql`lower(${enquiries.email}) = ${email.trim().toLowerCase()}`, after(EnquiriesOldestFirst, start)))
      .orderBy(...orderOf(EnquiriesOldestFirst))
      .limit(limit + 1);
    return rows.map((r) => ({ ...r.enquiry, position: r.position }));
  }

  /** Forgets every enquiry sent under an address, case-insensitively. */
  async forgetEmail(db: Database | Transaction, email: string): Promise<void> {
    await db.delete(enquiries).where(sql`lower(${enquiries.email}) = ${email.trim().toLowerCase()}`);
  }
}
