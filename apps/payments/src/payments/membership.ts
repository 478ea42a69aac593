import { Events, type Membership } from '@digicard/contracts';
import { FREE_TIER, isFreeTier } from '@digicard/domain';
import { recordEvent, type Transaction } from '@digicard/messaging';
import { outbox } from '../db/schema.js';
import type { SubscriptionsRepository, SubscriptionRow } from './subscriptions.repository.js';
import { priceOf } from './plans.js';

/**
 * The tier a charge of this subscription for `billingDate` pays for, and its amount: the tier asked for by a change
 * from the next billing date on; before the date the last change took effect (`tier_from`), the tier and price held
 * then (a late ITN for an earlier month); otherwise the subscription's own tier at its price.
 */
export function chargeOf(
  sub: SubscriptionRow,
  billingDate: string,
): { tier: SubscriptionRow['tier']; amountCents: number; changesTier: boolean } {
  if (sub.nextTier && sub.nextBillingDate && billingDate >= sub.nextBillingDate)
    return { tier: sub.nextTier, amountCents: priceOf(sub.nextTier), changesTier: true };
  if (sub.previousTier && sub.previousPriceCents !== null && sub.tierFrom && billingDate < sub.tierFrom) {
    return { tier: sub.previousTier, amountCents: sub.previousPriceCents, changesTier: false };
  }
  return { tier: sub.tier, amountCents: sub.monthlyPriceCents, changesTier: false };
}

/**
 * How long a membership checkout stays open at PayFast before a new one may replace it: long enough to pay, short
 * enough that a checkout abandoned without PayFast's Cancel does not block the owner for long.
 */
export const CHECKOUT_OPEN_MINUTES = 30;

/** When a pending subscription's checkout stops blocking a new one. */
export const checkoutExpiry = (sub: SubscriptionRow): Date => new Date(sub.createdAt.getTime() + CHECKOUT_OPEN_MINUTES * 60_000);

/** A pending subscription whose checkout may still be paid at PayFast (one per account). */
export const isOpenCheckout = (sub: SubscriptionRow, now: Date): boolean => sub.status === 'pending' && checkoutExpiry(sub) > now;

/** The tier a subscription gives its account now. */
export function membershipOf(sub: SubscriptionRow | null): Membership {
  return sub && (sub.status === 'active' || sub.status === 'cancelling' || sub.status === 'past-due') ? sub.tier : FREE_TIER;
}

/** Records `payments.membership.changed` with the account's next version, in the caller's transaction. */
export async function recordMembershipChanged(
  tx: Transaction,
  subscriptions: SubscriptionsRepository,
  sub: SubscriptionRow,
  at: Date,
): Promise<void> {
  const membership = membershipOf(sub);
  const version = await subscriptions.nextMembershipVersion(tx, sub.accountId);
  await recordEvent(tx, outbox, Events.membershipChanged, {
    accountId: sub.accountId,
    membership,
    paidUntil: isFreeTier(membership) ? null : (sub.paidUntil?.toISOString() ?? null),
    version,
    changedAt: at.toISOString(),
  });
}

/** Records `payments.subscription.cancelled` (the owner's email says until when the tier stays), in the caller's transaction. */
export async function recordSubscriptionCancelled(tx: Transaction, sub: SubscriptionRow, by: 'owner' | 'payfast', at: Date): Promise<void> {
  await recordEvent(tx, outbox, Events.subscriptionCancelled, {
    subscriptionId: sub.id,
    accountId: sub.accountId,
    tier: sub.tier,
    monthlyPriceCents: sub.monthlyPriceCents,
    endsAt: sub.paidUntil?.toISOString() ?? null,
    cancelledAt: at.toISOString(),
    by,
  });
}
