import { Inject, Injectable } from '@nestjs/common';
import type { Billing } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE } from '@digicard/server';
import { Clock } from '../clock.js';
import { isOpenCheckout, membershipOf } from '../membership.js';
import { SubscriptionsRepository, type SubscriptionRow } from '../subscriptions.repository.js';

export function toBilling(sub: SubscriptionRow | null): Billing {
  return {
    membership: membershipOf(sub),
    subscription: sub
      ? {
          id: sub.id,
          tier: sub.tier,
          status: sub.status,
          monthlyPriceCents: sub.monthlyPriceCents,
          paidUntil: sub.paidUntil?.toISOString() ?? null,
          nextBillingDate: sub.status === 'active' || sub.status === 'past-due' ? sub.nextBillingDate : null,
          graceUntil: sub.status === 'past-due' ? (sub.graceUntil?.toISOString() ?? null) : null,
          nextTier: sub.status === 'active' || sub.status === 'past-due' ? sub.nextTier : null,
        }
      : null,
  };
}

/** The caller's own tier and subscription: the account comes from `meta` only (its payments: `PaymentsQueries.history`). */
@Injectable()
export class GetBilling {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(SubscriptionsRepository) private readonly subscriptions: SubscriptionsRepository,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute(accountId: string): Promise<Billing> {
    const sub =
      (await this.subscriptions.holdingSubscription(this.db, accountId)) ??
      (await this.subscriptions.latestSubscription(this.db, accountId));
    // A checkout given up (left open too long) is not shown as waiting: the owner may start again.
    const shown = sub?.status === 'pending' && !isOpenCheckout(sub, this.clock.now()) ? null : sub;
    return toBilling(shown);
  }
}
