import { Inject, Injectable } from '@nestjs/common';
import type { Billing, PaidTier } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import type { Database } from '@digicard/db';
import { DATABASE, LOGGER } from '@digicard/server';
import { Clock } from '../clock.js';
import { conflict, unavailable } from '../errors.js';
import { PayFastClient } from '../clients/payfast.client.js';
import { SubscriptionsRepository } from '../subscriptions.repository.js';
import { priceOf } from '../plans.js';
import { GetBilling } from './get-billing.use-case.js';

/**
 * Changes an active subscription between DigiSilver and DigiGold from its next billing date: PayFast's recurring
 * amount first (so nothing of ours changes when PayFast refuses), then `next_tier`. The month paid stays as it is;
 * the charge for the next billing date makes `next_tier` the tier (see the ITN processor).
 */
@Injectable()
export class ChangeMembership {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(PayFastClient) private readonly payfast: PayFastClient,
    @Inject(SubscriptionsRepository) private readonly subscriptions: SubscriptionsRepository,
    @Inject(GetBilling) private readonly billing: GetBilling,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(tier: PaidTier, accountId: string): Promise<Billing> {
    const sub = await this.subscriptions.holdingSubscription(this.db, accountId);
    if (!sub || sub.status !== 'active' || !sub.token || !sub.nextBillingDate) {
      const why = !sub
        ? 'You have no membership to change.'
        : sub.status === 'cancelling'
          ? 'Your membership is cancelled; it cannot be changed.'
          : sub.status === 'past-due'
            ? 'Your last payment failed; please settle it before changing your membership.'
            : 'Your membership cannot be changed right now.';
      throw conflict(why);
    }
    // Back to the tier held now undoes a change asked for; anything else is the tier already held or coming.
    const next = tier === sub.tier ? null : tier;
    if ((sub.nextTier ?? null) === next)
      throw conflict(next === null ? `You already have ${tier}.` : `Your membership already changes to ${tier} on ${sub.nextBillingDate}.`);
    const amountCents = next === null ? sub.monthlyPriceCents : priceOf(next);
    const answer = await this.payfast.updateSubscriptionAmount(sub.token, amountCents, this.clock.now());
    if (!answer.ok) {
      this.logger.warn(
        { subscriptionId: sub.id, status: answer.status, detail: answer.detail },
        'PayFast did not change the subscription amount',
      );
      throw unavailable('PayFast could not change your membership right now. Please try again.');
    }
    await this.subscriptions.updateSubscription(this.db, sub.id, { nextTier: next }, this.clock.now());
    return this.billing.execute(accountId);
  }
}
