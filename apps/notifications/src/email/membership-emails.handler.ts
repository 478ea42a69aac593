import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Events } from '@digicard/contracts';
import { isFreeTier } from '@digicard/domain';
import { OnEvent, type EventContext } from '@digicard/server';
import { AccountLookup } from './account-lookup.js';
import { EmailQueue } from './email.producer.js';

type Data<E extends { data: z.ZodType }> = z.output<E['data']>;

/**
 * The emails of a membership: started, a receipt per charge, a failed charge, a cancellation, the end of the tier. One
 * job per event, its id derived from the event, so a redelivered event never sends twice.
 */
@Injectable()
export class MembershipEmails {
  constructor(
    @Inject(EmailQueue) private readonly emails: EmailQueue,
    @Inject(AccountLookup) private readonly accounts: AccountLookup,
  ) {}

  /** A month of a tier paid (the first or a recurring one): the receipt. Order payments get theirs from orders. */
  @OnEvent(Events.paymentCompleted)
  async paymentCompleted(payment: Data<typeof Events.paymentCompleted>, { eventId, tx, afterCommit }: EventContext): Promise<void> {
    if (payment.kind !== 'subscription' || !payment.tier) return;
    const payer = await this.accounts.accountOf(payment.accountId, eventId);
    if (!payer) return;
    await this.emails.queueAfterCommit(
      { tx, afterCommit },
      {
        template: 'membership-receipt',
        sourceEventId: eventId,
        to: payer.email,
        firstName: payer.firstName,
        tier: payment.tier,
        amountCents: payment.amountCents,
        paidAt: payment.completedAt,
        paidUntil: payment.paidUntil,
        started: payment.startsMembership === true,
      },
    );
  }

  /** A paid tier cancelled (under Billing, or at PayFast): no more charges, and the date the tier ends. */
  @OnEvent(Events.subscriptionCancelled)
  async subscriptionCancelled(
    cancel: Data<typeof Events.subscriptionCancelled>,
    { eventId, tx, afterCommit }: EventContext,
  ): Promise<void> {
    const owner = await this.accounts.accountOf(cancel.accountId, eventId);
    if (!owner) return;
    await this.emails.queueAfterCommit(
      { tx, afterCommit },
      {
        template: 'membership-cancelled',
        sourceEventId: eventId,
        to: owner.email,
        firstName: owner.firstName,
        tier: cancel.tier,
        monthlyCents: cancel.monthlyPriceCents,
        endsAt: cancel.endsAt,
      },
    );
  }

  /** A paid tier ended (its month ran out after a cancellation, or the grace after a failed payment). */
  @OnEvent(Events.membershipChanged)
  async membershipChanged(change: Data<typeof Events.membershipChanged>, { eventId, tx, afterCommit }: EventContext): Promise<void> {
    if (!isFreeTier(change.membership)) return;
    const owner = await this.accounts.accountOf(change.accountId, eventId);
    if (!owner) return;
    await this.emails.queueAfterCommit(
      { tx, afterCommit },
      {
        template: 'membership-ended',
        sourceEventId: eventId,
        to: owner.email,
        firstName: owner.firstName,
      },
    );
  }

  /** A recurring payment failed: the owner hears it at once, with the end of the grace period. */
  @OnEvent(Events.paymentFailed)
  async paymentFailed(failure: Data<typeof Events.paymentFailed>, { eventId, tx, afterCommit }: EventContext): Promise<void> {
    const payer = await this.accounts.accountOf(failure.accountId, eventId);
    if (!payer) return;
    await this.emails.queueAfterCommit(
      { tx, afterCommit },
      {
        template: 'payment-failed',
        sourceEventId: eventId,
        to: payer.email,
        firstName: payer.firstName,
        tier: failure.tier,
        amountCents: failure.amountCents,
        graceUntil: failure.graceUntil,
      },
    );
  }
}
