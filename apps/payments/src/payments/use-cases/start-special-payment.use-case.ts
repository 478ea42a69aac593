import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, type PaymentRedirect } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { isSpecial, specialGrant } from '@digicard/domain';
import { DATABASE, ServiceError, type SignedInMeta } from '@digicard/server';
import { addMonths, Clock, johannesburgDate } from '../clock.js';
import { conflict, unavailable } from '../errors.js';
import { PayFastClient } from '../clients/payfast.client.js';
import { PaymentRequestsRepository } from '../payment-requests.repository.js';
import { SubscriptionsRepository } from '../subscriptions.repository.js';
import { Peers } from '../clients/peers.js';
import { priceOf } from '../plans.js';
import { PayOrderOnce } from './pay-order-once.use-case.js';

/**
 * The special offer: one of the caller's own orders of specials (libs/domain says what a special is and grants).
 * Specials that grant no membership (the Bamboo special) are paid once, as any order. Those with months of DigiGold
 * are one PayFast subscription request: the first charge is the order's total (the special prices); DigiGold then
 * recurs monthly from the billing date, the included months after today (12 for a special of 12 months). A pending DigiGold subscription
 * and a `special` payment request naming the order and the subscription are kept; nothing is granted until the
 * payment completes (the ITN processor starts the included months then).
 */
@Injectable()
export class StartSpecialPayment {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(Peers) private readonly peers: Peers,
    @Inject(PayFastClient) private readonly payfast: PayFastClient,
    @Inject(PaymentRequestsRepository) private readonly requests: PaymentRequestsRepository,
    @Inject(SubscriptionsRepository) private readonly subscriptions: SubscriptionsRepository,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(PayOrderOnce) private readonly once: PayOrderOnce,
  ) {}

  async execute(orderId: string, meta: SignedInMeta): Promise<PaymentRedirect> {
    const order = await this.peers.orderAwaitingPayment(orderId, meta);
    const notSpecial = order.lines.filter((line) => !isSpecial(line));
    if (order.lines.length === 0 || notSpecial.length > 0) {
      throw new ServiceError({
        statusCode: 400,
        code: ErrorCode.ValidationFailed,
        message: `Only specials are paid this way: ${notSpecial.map((l) => l.name).join(', ') || 'the order is empty'}. Please buy cards from the basket.`,
      });
    }
    const grant = specialGrant(order.lines);
    if (!grant) return this.once.execute(order, meta);
    if (!this.payfast.hasPassphrase) throw unavailable('Specials cannot be paid right now.');
    const holding = await this.subscriptions.holdingSubscription(this.db, meta.userId);
    if (holding) throw conflict(`You already have ${holding.tier}: please buy the card from the basket.`);
    const buyer = await this.peers.buyer(meta);

    const { membership: tier, months } = grant;
    const monthly = priceOf(tier);
    const now = this.clock.now();
    // The SAST calendar date `months` after today's: PayFast charges the first DigiGold month then.
    const billingDate = johannesburgDate(addMonths(new Date(`${johannesburgDate(now)}T12:00:00Z`), months));
    const names = order.lines.map((l) => (l.quantity > 1 ? `${l.quantity} x ${l.name}` : l.name)).join(', ');
    const itemName = `DigiCard special: ${names} + ${months} months of DigiGold`.slice(0, 100);
    const subscriptionId = randomUUID();
    const id = randomUUID();
    await this.db.transaction(async (tx) => {
      await this.subscriptions.insertSubscription(tx, {
        id: subscriptionId,
        accountId: meta.userId,
        tier,
        status: 'pending',
        monthlyPriceCents: monthly,
        createdAt: now,
        updatedAt: now,
      });
      await this.requests.insertPaymentRequest(tx, {
        id,
        accountId: meta.userId,
        kind: 'special',
        orderId: order.id,
        subscriptionId,
        amountCents: order.totalCents,
        itemName,
        billingDate,
        createdAt: now,
      });
    });
    const redirectUrl = this.payfast.processUrl(
      {
        buyer: { nameFirst: buyer.firstName, nameLast: buyer.lastName, emailAddress: buyer.email },
        mPaymentId: id,
        amountCents: order.totalCents,
        itemName,
        subscription: { subscriptionType: 1, billingDate, recurringAmountCents: monthly, frequency: 3, cycles: 0 },
      },
      '/cancel',
    );
    return { redirectUrl };
  }
}
