import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { PaymentRedirect } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, type SignedInMeta } from '@digicard/server';
import { PayFastClient } from '../payfast.client.js';
import { PaymentsRepository } from '../payments.repository.js';
import { Peers } from '../peers.js';
import { StartSpecialPayment } from './start-special-payment.use-case.js';

/**
 * The signed PayFast request for one of the caller's own orders that still awaits payment. An order of specials
 * only (a special offer whose payment was not asked for, or was cancelled) is paid as the special offer, with its
 * months of DigiGold, unless the buyer holds a membership already.
 */
@Injectable()
export class StartOrderPayment {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(Peers) private readonly peers: Peers,
    @Inject(PayFastClient) private readonly payfast: PayFastClient,
    @Inject(PaymentsRepository) private readonly repo: PaymentsRepository,
    @Inject(StartSpecialPayment) private readonly special: StartSpecialPayment,
  ) {}

  async execute(orderId: string, meta: SignedInMeta): Promise<PaymentRedirect> {
    const order = await this.peers.orderAwaitingPayment(orderId, meta);
    const specialsOnly = order.lines.length > 0 && order.lines.every((line) => line.includedGoldMonths > 0);
    if (specialsOnly && this.payfast.hasPassphrase && !(await this.repo.holdingSubscription(this.db, meta.userId))) return this.special.execute(orderId, meta);
    const buyer = await this.peers.buyer(meta);
    const id = randomUUID();
    const itemName = `DigiCard NFC cards, order ${order.reference}`;
    await this.repo.insertPaymentRequest(this.db, { id, accountId: meta.userId, kind: 'order', orderId: order.id, amountCents: order.totalCents, itemName });
    const redirectUrl = this.payfast.processUrl(
      {
        buyer: { nameFirst: buyer.firstName, nameLast: buyer.lastName, emailAddress: buyer.email },
        mPaymentId: id,
        amountCents: order.totalCents,
        itemName,
      },
      '/cancel',
    );
    return { redirectUrl };
  }
}
