import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Rpc, type PaymentRedirect } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, RpcCallError, ServiceError, type SignedInMeta } from '@digicard/server';
import { conflict, unavailable } from '../errors.js';
import { PayFastClient } from '../payfast.client.js';
import { PaymentsRepository } from '../payments.repository.js';
import { PEERS_RPC, serviceMeta, type PeersRpc } from '../peers.js';
import { StartSpecialPayment } from './start-special-payment.use-case.js';

const orderNotFound = () => ServiceError.notFound('Order not found.');

/**
 * The signed PayFast request for one of the caller's own orders that still awaits payment. An order of specials
 * only (a special offer whose payment was not asked for, or was cancelled) is paid as the special offer, with its
 * months of DigiGold, unless the buyer holds a membership already.
 */
@Injectable()
export class StartOrderPayment {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(PEERS_RPC) private readonly peers: PeersRpc,
    @Inject(PayFastClient) private readonly payfast: PayFastClient,
    @Inject(PaymentsRepository) private readonly repo: PaymentsRepository,
    @Inject(StartSpecialPayment) private readonly special: StartSpecialPayment,
  ) {}

  async execute(orderId: string, meta: SignedInMeta): Promise<PaymentRedirect> {
    const { order, accountId } = await this.ask(() => this.peers.call(Rpc.orderForPayment, { orderId }, serviceMeta(meta)), orderNotFound);
    // Another account's order is answered as if it did not exist.
    if (accountId !== meta.userId) throw orderNotFound();
    if (order.status !== 'awaiting-payment') throw conflict('This order does not await payment.');
    const specialsOnly = order.lines.length > 0 && order.lines.every((line) => line.includedGoldMonths > 0);
    if (specialsOnly && this.payfast.hasPassphrase && !(await this.repo.holdingSubscription(this.db, meta.userId))) return this.special.execute(orderId, meta);
    const buyer = await this.ask(() => this.peers.call(Rpc.getAccount, {}, meta), () => ServiceError.notFound('Account not found.'));
    const id = randomUUID();
    const itemName = `DigiCard NFC cards, order ${order.reference}`;
    await this.repo.insertPaymentRequest(this.db, { id, accountId, kind: 'order', orderId: order.id, amountCents: order.totalCents, itemName });
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

  private async ask<T>(call: () => Promise<T>, notFound: () => ServiceError): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof RpcCallError && error.apiError?.statusCode === 404) throw notFound();
      if (error instanceof RpcCallError) throw unavailable('Payments cannot reach the order right now. Please try again.');
      throw error;
    }
  }
}
