import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { PaidTier, PaymentRedirect } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, type SignedInMeta } from '@digicard/server';
import { Clock, johannesburgDate } from '../clock.js';
import { conflict, unavailable } from '../errors.js';
import { PayFastClient } from '../payfast.client.js';
import { PaymentsRepository } from '../payments.repository.js';
import { Peers } from '../peers.js';
import { priceOf } from '../plans.js';

/**
 * A monthly DigiSilver or DigiGold subscription: a pending subscription and its payment request, and the signed
 * PayFast subscription request (the first month now, then monthly from today until cancelled).
 */
@Injectable()
export class StartMembership {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(Peers) private readonly peers: Peers,
    @Inject(PayFastClient) private readonly payfast: PayFastClient,
    @Inject(PaymentsRepository) private readonly repo: PaymentsRepository,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute(tier: PaidTier, meta: SignedInMeta): Promise<PaymentRedirect> {
    if (!this.payfast.hasPassphrase) throw unavailable('Memberships cannot be paid right now.');
    const holding = await this.repo.holdingSubscription(this.db, meta.userId);
    if (holding) throw conflict(`You already have ${holding.tier}${holding.status === 'cancelling' ? ' until the end of the paid month' : ''}.`);
    const buyer = await this.peers.buyer(meta);
    const price = priceOf(tier);
    const subscriptionId = randomUUID();
    const id = randomUUID();
    const itemName = `DigiCard ${tier} membership (monthly)`;
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      await this.repo.insertSubscription(tx, { id: subscriptionId, accountId: meta.userId, tier, status: 'pending', monthlyPriceCents: price, createdAt: now, updatedAt: now });
      await this.repo.insertPaymentRequest(tx, { id, accountId: meta.userId, kind: 'subscription', subscriptionId, amountCents: price, itemName, createdAt: now });
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
    );
    return { redirectUrl };
  }
}
