import { Inject, Injectable } from '@nestjs/common';
import type { PaymentRedirect } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { isSpecial, specialGrant } from '@digicard/domain';
import { DATABASE, type SignedInMeta } from '@digicard/server';
import { PayFastClient } from '../clients/payfast.client.js';
import { SubscriptionsRepository } from '../subscriptions.repository.js';
import { Peers } from '../clients/peers.js';
import { PayOrderOnce } from './pay-order-once.use-case.js';
import { StartSpecialPayment } from './start-special-payment.use-case.js';

/**
 * The signed PayFast request for one of the caller's own orders that still awaits payment. An order of specials
 * only that grants months of DigiGold (a special offer whose payment was not asked for, or was cancelled) is paid as
 * the special offer, with its months of DigiGold, unless the buyer holds a membership already; any other order is
 * paid once.
 */
@Injectable()
export class StartOrderPayment {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(Peers) private readonly peers: Peers,
    @Inject(PayFastClient) private readonly payfast: PayFastClient,
    @Inject(SubscriptionsRepository) private readonly subscriptions: SubscriptionsRepository,
    @Inject(StartSpecialPayment) private readonly special: StartSpecialPayment,
    @Inject(PayOrderOnce) private readonly once: PayOrderOnce,
  ) {}

  async execute(orderId: string, meta: SignedInMeta): Promise<PaymentRedirect> {
    const order = await this.peers.orderAwaitingPayment(orderId, meta);
    const specialsOnly = order.lines.length > 0 && order.lines.every(isSpecial);
    if (
      specialsOnly &&
      specialGrant(order.lines) &&
      this.payfast.hasPassphrase &&
      !(await this.subscriptions.holdingSubscription(this.db, meta.userId))
    ) {
      return this.special.execute(orderId, meta);
    }
    return this.once.execute(order, meta);
  }
}
