import { Injectable } from '@nestjs/common';
import type { SubmitEnquiryRequest } from '@digicard/contracts';
import { asc, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { enquiries } from '../db/schema.js';

export type EnquiryRow = typeof enquiries.$inferSelect;

@Injectable()
export class EnquiriesRepository {
  async insert(tx: Transaction, id: string, enquiry: SubmitEnquiryRequest): Promise<EnquiryRow> {
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
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  /** The enquiries sent under an address (case-insensitively), oldest first: what we hold about its owner. */
  async byEmail(db: Database | Transaction, email: string): Promise<EnquiryRow[]> {
    return db
      .select()
      .from(enquiries)
      .where(sql`lower(${enquiries.email}) = ${email.trim().toLowerCase()}`)
      .orderBy(asc(enquiries.createdAt));
  }
}
