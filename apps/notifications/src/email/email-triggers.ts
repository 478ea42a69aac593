import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Events, Rpc, WebRoutes, type EmailJob, type RequestMeta } from '@digicard/contracts';
import { isFreeTier } from '@digicard/domain';
import sharp from 'sharp';
import {
  CONFIG,
  LOGGER,
  OnEvent,
  RpcCallError,
  buildVcard,
  newEmailToken,
  vcardFileName,
  type EventContext,
  type RpcClient,
  RPC_CLIENT,
} from '@digicard/server';
import type { Logger } from '@digicard/config';
import type { Config } from '../config.js';
import { CrmHandoff } from '../crm/crm-handoff.js';
import { EmailQueue } from './email.queue.js';

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
    @Inject(RPC_CLIENT) private readonly bus: RpcClient,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CrmHandoff) private readonly crm: CrmHandoff,
  ) {}

  @OnEvent(Events.leadCaptured)
  async leadCaptured(lead: Data<typeof Events.leadCaptured>, context: EventContext): Promise<void> {
    const { eventId, afterCommit } = context;
    this.emails.queueAfterCommit(afterCommit, {
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
    if (lead.kind === 'exchange' && lead.sendCard && lead.ownerUsername) await this.sendCard(lead, eventId, afterCommit);
    if (lead.kind === 'own-profile') {
      const signUp = new URL('/register', this.config.PUBLIC_URL);
      for (const [key, value] of Object.entries({ firstName: lead.firstName, lastName: lead.lastName, email: lead.email }))
        if (value) signUp.searchParams.set(key, value);
      this.emails.queueAfterCommit(afterCommit, {
        template: 'visitor-welcome',
        sourceEventId: eventId,
        to: lead.email,
        firstName: lead.firstName,
        ownerName: lead.ownerFirstName,
        link: signUp.toString(),
      });
    }
    // DigiGold and up with a webhook turned on: the lead goes to the owner's CRM too.
    await this.crm.leadCaptured(lead, context);
  }

  /** The owner asked for a new email: the link goes to the new address (made here; identity keeps only its hash). */
  @OnEvent(Events.emailChangeRequested)
  async emailChangeRequested(
    { accountId, newEmail }: Data<typeof Events.emailChangeRequested>,
    { eventId, afterCommit }: EventContext,
  ): Promise<void> {
    const { token, tokenHash } = newEmailToken();
    // Null when a newer request (or the change itself) came since: that request's email is the one that counts.
    const issued = await this.bus.call(Rpc.issueEmailChangeToken, { accountId, newEmail, tokenHash }, meta(eventId));
    if (!issued) return;
    this.emails.queueAfterCommit(afterCommit, {
      template: 'confirm-email-change',
      sourceEventId: eventId,
      to: issued.email,
      firstName: issued.firstName,
      link: `${this.config.PUBLIC_URL}${WebRoutes.confirmEmail}?token=${encodeURIComponent(token)}`,
      expiresAt: issued.expiresAt,
    });
  }

  /** The change is done: a notice to the old address, without any link that acts on the account. */
  @OnEvent(Events.emailChanged)
  async emailChanged(change: Data<typeof Events.emailChanged>, { eventId, afterCommit }: EventContext): Promise<void> {
    const owner = await this.accountOf(change.accountId, eventId);
    this.emails.queueAfterCommit(afterCommit, {
      template: 'email-changed',
      sourceEventId: eventId,
      to: change.oldEmail,
      firstName: owner?.firstName ?? '',
      newEmail: change.newEmail,
      signInLink: `${this.config.PUBLIC_URL.replace(/\/+$/, '')}${WebRoutes.login}`,
    });
  }

  /** Someone asked to move their account to this account's address: its owner hears of it (the asker learns nothing). */
  @OnEvent(Events.emailChangeAttempted)
  async emailChangeAttempted(
    { accountId }: Data<typeof Events.emailChangeAttempted>,
    { eventId, afterCommit }: EventContext,
  ): Promise<void> {
    const owner = await this.accountOf(accountId, eventId);
    if (!owner) return;
    this.emails.queueAfterCommit(afterCommit, {
      template: 'email-change-attempted',
      sourceEventId: eventId,
      to: owner.email,
      firstName: owner.firstName,
      signInLink: `${this.config.PUBLIC_URL.replace(/\/+$/, '')}${WebRoutes.login}`,
    });
  }

  @OnEvent(Events.enquiryReceived)
  enquiryReceived(enquiry: Data<typeof Events.enquiryReceived>, { eventId, afterCommit }: EventContext): Promise<void> {
    this.emails.queueAfterCommit(afterCommit, { template: 'enquiry-received', sourceEventId: eventId, enquiry });
    return Promise.resolve();
  }

  @OnEvent(Events.userRegistered)
  async registered({ accountId }: Data<typeof Events.userRegistered>, { eventId, afterCommit }: EventContext): Promise<void> {
    this.send(afterCommit, await this.verificationEmail(accountId, eventId));
  }

  @OnEvent(Events.verificationRequested)
  async verificationRequested(
    { accountId }: Data<typeof Events.verificationRequested>,
    { eventId, afterCommit }: EventContext,
  ): Promise<void> {
    this.send(afterCommit, await this.verificationEmail(accountId, eventId));
  }

  @OnEvent(Events.passwordResetRequested)
  async passwordResetRequested(
    { accountId }: Data<typeof Events.passwordResetRequested>,
    { eventId, afterCommit }: EventContext,
  ): Promise<void> {
    const { token, tokenHash } = newEmailToken();
    const issued = await this.bus.call(Rpc.issuePasswordResetToken, { accountId, tokenHash }, meta(eventId));
    if (!issued) return;
    this.emails.queueAfterCommit(afterCommit, {
      template: 'reset-password',
      sourceEventId: eventId,
      to: issued.email,
      firstName: issued.firstName,
      link: `${this.config.PUBLIC_URL}/reset-password?token=${encodeURIComponent(token)}`,
      expiresAt: issued.expiresAt,
    });
  }

  /** A leader added a rep: a welcome, with a link to choose their own password (valid for a week). */
  @OnEvent(Events.teamMemberAdded)
  async teamMemberAdded(
    { memberAccountId, leaderAccountId }: Data<typeof Events.teamMemberAdded>,
    { eventId, afterCommit }: EventContext,
  ): Promise<void> {
    const { token, tokenHash } = newEmailToken();
    const issued = await this.bus.call(Rpc.issueWelcomeToken, { accountId: memberAccountId, tokenHash }, meta(eventId));
    if (!issued) return;
    const leader = await this.accountOf(leaderAccountId, eventId);
    this.emails.queueAfterCommit(afterCommit, {
      template: 'rep-welcome',
      sourceEventId: eventId,
      to: issued.email,
      firstName: issued.firstName,
      leaderName: leader ? `${leader.firstName} ${leader.lastName}`.trim() : 'Your team leader',
      link: `${this.config.PUBLIC_URL}/reset-password?token=${encodeURIComponent(token)}`,
      expiresAt: issued.expiresAt,
    });
  }

  /** Only a paid order gets a receipt (a placed one may never be paid). */
  @OnEvent(Events.orderPaid)
  async orderPaid(order: Data<typeof Events.orderPaid>, { eventId, afterCommit }: EventContext): Promise<void> {
    const buyer = await this.accountOf(order.accountId, eventId);
    if (!buyer) {
      this.logger.warn({ eventId, orderId: order.orderId }, 'order paid by an account that is gone: no receipt');
      return;
    }
    this.emails.queueAfterCommit(afterCommit, {
      template: 'order-receipt',
      sourceEventId: eventId,
      to: buyer.email,
      firstName: buyer.firstName,
      reference: order.reference,
      lines: order.lines,
      totalCents: order.totalCents,
      paidAt: order.at,
    });
  }

  /** Every move of an order after payment: the owner hears each one (the payment itself sends the receipt). */
  @OnEvent(Events.orderStateChanged)
  async orderStateChanged(change: Data<typeof Events.orderStateChanged>, { eventId, afterCommit }: EventContext): Promise<void> {
    const owner = await this.accountOf(change.accountId, eventId);
    if (!owner) {
      this.logger.warn({ eventId, orderId: change.orderId }, 'order moved for an account that is gone: no email');
      return;
    }
    this.emails.queueAfterCommit(afterCommit, {
      template: 'order-state-changed',
      sourceEventId: eventId,
      to: owner.email,
      firstName: owner.firstName,
      reference: change.reference,
      from: change.from,
      status: change.to,
      by: change.by,
      note: change.note,
      courier: change.courier,
      trackingNumber: change.trackingNumber,
      at: change.at,
    });
  }

  /** A month of a tier paid (the first or a recurring one): the receipt. Order payments get theirs from orders. */
  @OnEvent(Events.paymentCompleted)
  async paymentCompleted(payment: Data<typeof Events.paymentCompleted>, { eventId, afterCommit }: EventContext): Promise<void> {
    if (payment.kind !== 'subscription' || !payment.tier) return;
    const payer = await this.accountOf(payment.accountId, eventId);
    if (!payer) return;
    this.emails.queueAfterCommit(afterCommit, {
      template: 'membership-receipt',
      sourceEventId: eventId,
      to: payer.email,
      firstName: payer.firstName,
      tier: payment.tier,
      amountCents: payment.amountCents,
      paidAt: payment.completedAt,
      paidUntil: payment.paidUntil,
      started: payment.startsMembership === true,
    });
  }

  /** A paid tier cancelled (under Billing, or at PayFast): no more charges, and the date the tier ends. */
  @OnEvent(Events.subscriptionCancelled)
  async subscriptionCancelled(cancel: Data<typeof Events.subscriptionCancelled>, { eventId, afterCommit }: EventContext): Promise<void> {
    const owner = await this.accountOf(cancel.accountId, eventId);
    if (!owner) return;
    this.emails.queueAfterCommit(afterCommit, {
      template: 'membership-cancelled',
      sourceEventId: eventId,
      to: owner.email,
      firstName: owner.firstName,
      tier: cancel.tier,
      monthlyCents: cancel.monthlyPriceCents,
      endsAt: cancel.endsAt,
    });
  }

  /** Someone registered with an existing account's email: the owner hears of it (the stranger learns nothing). */
  @OnEvent(Events.registrationAttempted)
  async registrationAttempted(
    { accountId }: Data<typeof Events.registrationAttempted>,
    { eventId, afterCommit }: EventContext,
  ): Promise<void> {
    const owner = await this.accountOf(accountId, eventId);
    if (!owner) return;
    const base = this.config.PUBLIC_URL.replace(/\/+$/, '');
    this.emails.queueAfterCommit(afterCommit, {
      template: 'registration-attempted',
      sourceEventId: eventId,
      to: owner.email,
      firstName: owner.firstName,
      signInLink: `${base}${WebRoutes.login}`,
    });
  }

  /** A paid tier ended (its month ran out after a cancellation, or the grace after a failed payment). */
  @OnEvent(Events.membershipChanged)
  async membershipChanged(change: Data<typeof Events.membershipChanged>, { eventId, afterCommit }: EventContext): Promise<void> {
    if (!isFreeTier(change.membership)) return;
    const owner = await this.accountOf(change.accountId, eventId);
    if (!owner) return;
    this.emails.queueAfterCommit(afterCommit, {
      template: 'membership-ended',
      sourceEventId: eventId,
      to: owner.email,
      firstName: owner.firstName,
    });
  }

  /** A recurring payment failed: the owner hears it at once, with the end of the grace period. */
  @OnEvent(Events.paymentFailed)
  async paymentFailed(failure: Data<typeof Events.paymentFailed>, { eventId, afterCommit }: EventContext): Promise<void> {
    const payer = await this.accountOf(failure.accountId, eventId);
    if (!payer) return;
    this.emails.queueAfterCommit(afterCommit, {
      template: 'payment-failed',
      sourceEventId: eventId,
      to: payer.email,
      firstName: payer.firstName,
      tier: failure.tier,
      amountCents: failure.amountCents,
      graceUntil: failure.graceUntil,
    });
  }

  /**
   * The buyer's email and first name, from identity's service-only `accountById` (the account named in the body; this
   * service never poses as the buyer in `meta.userId`). Null when the account is gone (deleted since it paid).
   */
  private async accountOf(accountId: string, eventId: string) {
    try {
      return await this.bus.call(Rpc.accountById, { accountId }, meta(eventId));
    } catch (error) {
      if (error instanceof RpcCallError && error.apiError?.statusCode === 404) return null;
      throw error;
    }
  }

  /**
   * Exchange Contact, when the visitor asked for it: the owner's vCard (the same card Save to Contact serves, photo
   * included) attached to an email to the visitor. A profile that is no longer shared sends nothing.
   */
  private async sendCard(lead: Data<typeof Events.leadCaptured>, eventId: string, afterCommit: EventContext['afterCommit']): Promise<void> {
    const visitor = meta(eventId);
    let found;
    try {
      found = await this.bus.call(Rpc.getPublicProfile, { username: lead.ownerUsername!, source: null }, visitor);
    } catch (error) {
      if (error instanceof RpcCallError && error.apiError?.statusCode === 404) {
        this.logger.warn({ eventId, leadId: lead.leadId }, 'Exchange Contact: the profile is no longer shared; no card sent');
        return;
      }
      throw error;
    }
    const { profile } = found;
    let photo: Buffer | null = null;
    const id = /^\/media\/([A-Za-z0-9_-]+)\./.exec(profile.document.profileImage)?.[1];
    if (id) {
      const media = await this.bus.call(Rpc.getMedia, { id }, visitor);
      photo = await sharp(Buffer.from(media.dataBase64, 'base64')).resize(300, 300, { fit: 'cover' }).jpeg({ quality: 80 }).toBuffer();
    }
    const profileUrl = `${this.config.PUBLIC_URL.replace(/\/+$/, '')}/${profile.username}`;
    this.emails.queueAfterCommit(afterCommit, {
      template: 'exchange-card',
      sourceEventId: eventId,
      to: lead.email,
      firstName: lead.firstName,
      ownerName: `${profile.firstName} ${profile.lastName}`.trim() || profile.username,
      profileUrl,
      vcard: { fileName: vcardFileName(profile), content: buildVcard({ profile, profileUrl, photoJpeg: photo }) },
    });
  }

  private async verificationEmail(accountId: string, eventId: string): Promise<EmailJob | null> {
    const { token, tokenHash } = newEmailToken();
    const issued = await this.bus.call(Rpc.issueVerificationToken, { accountId, tokenHash }, meta(eventId));
    if (!issued) return null;
    return {
      template: 'verify-email',
      sourceEventId: eventId,
      to: issued.email,
      firstName: issued.firstName,
      link: `${this.config.PUBLIC_URL}/verify-email?token=${encodeURIComponent(token)}`,
      expiresAt: issued.expiresAt,
    };
  }

  private send(afterCommit: EventContext['afterCommit'], job: EmailJob | null): void {
    if (job) this.emails.queueAfterCommit(afterCommit, job);
  }
}
