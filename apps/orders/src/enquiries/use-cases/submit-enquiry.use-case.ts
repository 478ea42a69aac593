import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, Events, type EnquiryAccepted, type SubmitEnquiryRequest } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import { outbox } from '../../db/schema.js';
import { EnquiriesRepository } from '../enquiries.repository.js';

/**
 * A sales enquiry from the marketing site (a call-back or a message): stored with `orders.enquiry.received` in one
 * transaction, so the sales team's email follows from the event, or neither happens. A retry with the same
 * idempotency key (the browser's, per submission) is answered with the enquiry stored first.
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
      if (!stored) {
        // A retry of a submission stored already (its first answer was lost, e.g. the gateway's time-out): the first
        // result again, no second enquiry or email. A key sent with someone else's details is refused.
        const first = await this.enquiries.byIdempotencyKey(tx, enquiry.idempotencyKey!);
        if (!first || first.email !== enquiry.email || first.kind !== enquiry.kind) {
          throw new ServiceError({
            statusCode: 409,
            code: ErrorCode.Conflict,
            message: 'This form was sent already with other details. Please reload the page and try again.',
          });
        }
        return first;
      }
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
