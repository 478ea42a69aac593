import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, Events, LeadMessages, leadConsentText, UpgradeMessages, type LeadSubmission } from '@digicard/contracts';
import { can, saDay, startOfSaDay } from '@digicard/domain';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { CONFIG, DATABASE, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import type { Config } from '../../config.js';
import { outbox } from '../../db/schema.js';
import { membershipOf } from '../profile.mapping.js';
import { profileNotFound } from '../profile-writer.js';
import { ProfilesRepository } from '../profiles.repository.js';
import { LeadsRepository } from '../leads.repository.js';

/**
 * A visitor's lead form, Exchange Contact or Get your own Profile: stored with `profiles.lead.captured` in one
 * transaction (the owner's email follows from the event). Only shared profiles take leads; the lead form needs the
 * tier of the profile, or of its business. A retry with the same idempotency key (the visitor's browser's, per
 * submission) is answered with the lead stored first. A profile takes at most LEADS_PER_PROFILE_DAY leads a day (429
 * after that, counted under the account's lock so that a burst cannot pass it together).
 */
@Injectable()
export class SubmitLead {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(LeadsRepository) private readonly leads: LeadsRepository,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async execute(username: string, submission: LeadSubmission): Promise<{ id: string }> {
    const row = await this.profiles.byUsername(this.db, username.toLowerCase());
    if (!row || !row.isPublic || !row.isVerified || row.suspendedAt) throw profileNotFound();
    const business = row.businessAccountId ? await this.profiles.byAccount(this.db, row.businessAccountId) : null;
    if (submission.kind === 'lead' && !can(membershipOf(business ?? row), 'leadForm'))
      throw ServiceError.forbidden(UpgradeMessages.leadForm);
    const id = randomUUID();
    // A robot filled in the field people never see: answer as if stored, keep nothing.
    if (submission.website) return { id };
    const stored = await this.db.transaction(async (tx) => {
      await this.profiles.lockAccount(tx, row.accountId);
      const today = await this.leads.leadsSince(tx, row.accountId, startOfSaDay(saDay()));
      const retry = submission.idempotencyKey ? await this.leads.leadByIdempotencyKey(tx, submission.idempotencyKey) : null;
      if (today >= this.config.LEADS_PER_PROFILE_DAY && !retry) {
        throw new ServiceError({ statusCode: 429, code: ErrorCode.TooManyRequests, message: LeadMessages.profileFullToday });
      }
      const lead = await this.leads.insertLead(tx, {
        id,
        accountId: row.accountId,
        kind: submission.kind,
        firstName: submission.firstName,
        lastName: submission.lastName,
        email: submission.email,
        phone: submission.phone,
        message: submission.message,
        // The words the form showed next to the box the visitor ticked (the page names the owner as ProfileView
        // does), and when it was ticked.
        consentText: leadConsentText(row.firstName.trim() || `${row.firstName} ${row.lastName}`.trim() || row.username),
        consentAt: new Date(),
        idempotencyKey: submission.idempotencyKey ?? null,
      });
      if (!lead) {
        // A retry of a submission stored already (its first answer was lost): the first result again, no second lead
        // or email. A key sent with someone else's details, or to another profile, is refused.
        const first = await this.leads.leadByIdempotencyKey(tx, submission.idempotencyKey!);
        if (!first || first.accountId !== row.accountId || first.email !== submission.email) {
          throw new ServiceError({
            statusCode: 409,
            code: ErrorCode.Conflict,
            message: 'This form was sent already with other details. Please reload the page and try again.',
          });
        }
        return first;
      }
      await recordEvent(tx, outbox, Events.leadCaptured, {
        leadId: lead.id,
        accountId: row.accountId,
        ownerEmail: row.email,
        ownerFirstName: row.firstName,
        kind: lead.kind,
        firstName: lead.firstName,
        lastName: lead.lastName,
        email: lead.email,
        phone: lead.phone,
        message: lead.message,
        createdAt: lead.createdAt.toISOString(),
        // Exchange Contact: the visitor ticked "Send me …'s contact card".
        ...(lead.kind === 'exchange' && submission.sendCard ? { sendCard: true, ownerUsername: row.username } : {}),
      });
      return lead;
    });
    this.relay?.kick();
    return { id: stored.id };
  }
}
