import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { MembershipReturnPath, type PaidTier, type PaymentRedirect } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { SA_TIME_ZONE } from '@digicard/domain';
import { DATABASE, type SignedInMeta } from '@digicard/server';
import { Clock, johannesburgDate } from '../clock.js';
import { conflict, unavailable } from '../errors.js';
import { PayFastClient } from '../clients/payfast.client.js';
import { PaymentRequestsRepository } from '../payment-requests.repository.js';
import { SubscriptionsRepository } from '../subscriptions.repository.js';
import { Peers } from '../clients/peers.js';
import { priceOf } from '../plans.js';
import { checkoutExpiry, isOpenCheckout } from '../membership.js';

/**
 * A monthly DigiSilver or DigiGold subscription: a pending subscription and its payment request, and the signed
 * PayFast subscription request (the first month now, then monthly from today until cancelled). An account has one
 * open checkout at a time (409 while another is open); one left for `CHECKOUT_OPEN_MINUTES` is given up.
 */
@Injectable()
export class StartMembership {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(Peers) private readonly peers: Peers,
    @Inject(PayFastClient) private readonly payfast: PayFastClient,
    @Inject(PaymentRequestsRepository) private readonly requests: PaymentRequestsRepository,
    @Inject(SubscriptionsRepository) private readonly subscriptions: SubscriptionsRepository,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute(tier: PaidTier, meta: SignedInMeta): Promise<PaymentRedirect> {
    if (!this.payfast.hasPassphrase) throw unavailable('Memberships cannot be paid right now.');
    const buyer = await this.peers.buyer(meta);
    const price = priceOf(tier);
    const subscriptionId = randomUUID();
    const id = randomUUID();
    const itemName = `DigiCard ${tier} membership (monthly)`;
    const now = this.clock.now();
    // One checkout per account at a time: the account's checkouts are serialised by a lock held to the commit, so two
    // tabs (or two replicas) cannot both see "nothing pending" and open two PayFast subscriptions.
    await this.db.transaction(async (tx) => {
      await this.subscriptions.lockAccountCheckouts(tx, meta.userId);
      const holding = await this.subscriptions.holdingSubscription(tx, meta.userId);
      if (holding)
        throw conflict(`You already have ${holding.tier}${holding.status === 'cancelling' ? ' until the end of the paid month' : ''}.`);
      const pending = await this.subscriptions.pendingSubscription(tx, meta.userId);
      if (pending && isOpenCheckout(pending, now)) {
        throw conflict(
          `Your ${pending.tier} payment at PayFast is not finished yet. Please finish it in the window where you started it, or start again after ${checkoutExpiry(pending).toLocaleTimeString('en-ZA', { timeZone: SA_TIME_ZONE, hour: '2-digit', minute: '2-digit' })}.`,
        );
      }
      // A checkout left longer than that is given up; should it still be paid, the payment is flagged for a refund.
      if (pending) await this.subscriptions.updateSubscription(tx, pending.id, { status: 'ended' }, now);
      await this.subscriptions.insertSubscription(tx, {
        id: subscriptionId,
        accountId: meta.userId,
        tier,
        status: 'pending',
        monthlyPriceCents: price,
        createdAt: now,
        updatedAt: now,
      });
      await this.requests.insertPaymentRequest(tx, {
        id,
        accountId: meta.userId,
        kind: 'subscription',
        subscriptionId,
        amountCents: price,
        itemName,
        createdAt: now,
      });
    });
    const redirectUrl = this.payfast.processUrl(
      {
        buyer: { nameFirst: buyer.firstName, nameLast: buyer.lastName, emailAddress: buyer.email },
        mPaymentId: id,
        amountCents: price,
        itemName,
        subscription: { subscriptionType: 1, billingDate: johannesburgDate(now), recurringAmountCents: price, frequency: 3, cycles: 0 },
      },
      '/pricing',
      MembershipReturnPath,
    );
    return { redirectUrl };
  }
}
