import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Events, Rpc, type EmailJob, type RequestMeta } from '@digicard/contracts';
import { CONFIG, OnEvent, type EventContext, type RpcClient } from '@digicard/server';
import type { Config } from '../config.js';
import { EmailQueue } from './email.queue.js';

/** The client this service asks identity with (for the single-use links that only identity can issue). */
export const IDENTITY_RPC = Symbol('IDENTITY_RPC');

const meta = (eventId: string): RequestMeta => ({ requestId: `event-${eventId}`, userId: null, role: null, ip: null });

type Data<E extends { data: z.ZodType }> = z.output<E['data']>;

/**
 * Every event that sends an email, and what it sends: one job per event, its id derived from the event, so a
 * redelivered event never sends twice. An event that calls for no email (the account is verified already) sends none.
 */
@Injectable()
export class EmailTriggers {
  constructor(
    @Inject(EmailQueue) private readonly emails: EmailQueue,
    @Inject(IDENTITY_RPC) private readonly identity: RpcClient,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @OnEvent(Events.leadCaptured)
  async leadCaptured(lead: Data<typeof Events.leadCaptured>, { eventId }: EventContext): Promise<void> {
    await this.emails.enqueue({
      template: 'lead-captured',
      sourceEventId: eventId,
      to: lead.ownerEmail,
      ownerFirstName: lead.ownerFirstName,
      lead: {
        kind: lead.kind,
        firstName: lead.firstName,
        lastName: lead.lastName,
        email: lead.email,
        phone: lead.phone,
        message: lead.message,
        createdAt: lead.createdAt,
      },
    });
  }

  @OnEvent(Events.enquiryReceived)
  async enquiryReceived(enquiry: Data<typeof Events.enquiryReceived>, { eventId }: EventContext): Promise<void> {
    await this.emails.enqueue({ template: 'enquiry-received', sourceEventId: eventId, enquiry });
  }

  @OnEvent(Events.userRegistered)
  async registered({ accountId }: Data<typeof Events.userRegistered>, { eventId }: EventContext): Promise<void> {
    await this.send(await this.verificationEmail(accountId, eventId));
  }

  @OnEvent(Events.verificationRequested)
  async verificationRequested({ accountId }: Data<typeof Events.verificationRequested>, { eventId }: EventContext): Promise<void> {
    await this.send(await this.verificationEmail(accountId, eventId));
  }

  @OnEvent(Events.passwordResetRequested)
  async passwordResetRequested({ accountId }: Data<typeof Events.passwordResetRequested>, { eventId }: EventContext): Promise<void> {
    const issued = await this.identity.call(Rpc.issuePasswordResetToken, { accountId }, meta(eventId));
    if (!issued) return;
    await this.emails.enqueue({
      template: 'reset-password',
      sourceEventId: eventId,
      to: issued.email,
      firstName: issued.firstName,
      link: `${this.config.PUBLIC_URL}/reset-password?token=${encodeURIComponent(issued.token)}`,
      expiresAt: issued.expiresAt,
    });
  }

  private async verificationEmail(accountId: string, eventId: string): Promise<EmailJob | null> {
    const issued = await this.identity.call(Rpc.issueVerificationToken, { accountId }, meta(eventId));
    if (!issued) return null;
    return {
      template: 'verify-email',
      sourceEventId: eventId,
      to: issued.email,
      firstName: issued.firstName,
      link: `${this.config.PUBLIC_URL}/verify-email?token=${encodeURIComponent(issued.token)}`,
      expiresAt: issued.expiresAt,
    };
  }

  private async send(job: EmailJob | null): Promise<void> {
    if (job) await this.emails.enqueue(job);
  }
}
