import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Events, type EnquiryAccepted, type SubmitEnquiryRequest } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY } from '@digicard/server';
import { outbox } from '../../db/schema.js';
import { EnquiriesRepository } from '../enquiries.repository.js';

/**
 * A sales enquiry from the marketing site (a call-back or a message): stored with `orders.enquiry.received` in one
 * transaction, so the sales team's email follows from the event, or neither happens.
 */
@Injectable()
export class SubmitEnquiry {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(EnquiriesRepository) private readonly enquiries: EnquiriesRepository,
  ) {}

  async execute(enquiry: SubmitEnquiryRequest): Promise<EnquiryAccepted> {
    const row = await this.db.transaction(async (tx) => {
      const stored = await this.enquiries.insert(tx, randomUUID(), enquiry);
      await recordEvent(tx, outbox, Events.enquiryReceived, {
        enquiryId: stored.id,
        kind: stored.kind,
        name: stored.name,
        email: stored.email,
        phone: stored.phone,
        message: stored.message,
        company: stored.company,
        teamSize: stored.teamSize,
        receivedAt: stored.createdAt.toISOString(),
      });
      return stored;
    });
    this.relay?.kick();
    return { id: row.id, receivedAt: row.createdAt.toISOString() };
  }
}
