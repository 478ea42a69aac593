import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Order, PaymentRedirect } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, type SignedInMeta } from '@digicard/server';
import { PayFastClient } from '../clients/payfast.client.js';
import { PaymentRequestsRepository } from '../payment-requests.repository.js';
import { Peers } from '../clients/peers.js';

/** One PayFast payment of an order's total, nothing recurring: the basket's cards, or specials that grant no membership. */
@Injectable()
export class PayOrderOnce {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(Peers) private readonly peers: Peers,
    @Inject(PayFastClient) private readonly payfast: PayFastClient,
    @Inject(PaymentRequestsRepository) private readonly requests: PaymentRequestsRepository,
  ) {}

  async execute(order: Order, meta: SignedInMeta): Promise<PaymentRedirect> {
    const buyer = await this.peers.buyer(meta);
    const id = randomUUID();
    const itemName = `DigiCard NFC cards, order ${order.reference}`;
    await this.requests.insertPaymentRequest(this.db, {
      id,
      accountId: meta.userId,
      kind: 'order',
      orderId: order.id,
      amountCents: order.totalCents,
      itemName,
    });
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
