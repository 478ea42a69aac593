import { Inject, Injectable } from '@nestjs/common';
import { Rpc, type Order, type RequestMeta, type SessionUser } from '@digicard/contracts';
import { RpcCallError, ServiceError, type RpcClient, type SignedInMeta, RPC_CLIENT } from '@digicard/server';
import { conflict, unavailable } from '../errors.js';

export type PeersRpc = RpcClient;

/** The meta of a call this service makes on its own account: the same request id, nobody signed in. */
export const serviceMeta = (meta: RequestMeta): RequestMeta => ({ requestId: meta.requestId, userId: null, role: null, ip: null });

const orderNotFound = () => ServiceError.notFound('Order not found.');

/** What payments asks the other services before it builds a PayFast request, with their failures as our answers. */
@Injectable()
export class Peers {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: PeersRpc) {}

  /** One of the caller's own orders that still awaits payment; another account's order is answered as if unknown. */
  async orderAwaitingPayment(orderId: string, meta: SignedInMeta): Promise<Order> {
    const { order, accountId } = await this.ask(
      () => this.rpc.call(Rpc.orderForPayment, { orderId }, serviceMeta(meta)),
      orderNotFound,
      'the order',
    );
    if (accountId !== meta.userId) throw orderNotFound();
    if (order.status !== 'awaiting-payment') throw conflict('This order does not await payment.');
    return order;
  }

  /** The signed-in buyer's name and email, for PayFast's page. */
  buyer(meta: SignedInMeta): Promise<SessionUser> {
    return this.ask(
      () => this.rpc.call(Rpc.getAccount, {}, meta),
      () => ServiceError.notFound('Account not found.'),
      'your account',
    );
  }

  private async ask<T>(call: () => Promise<T>, notFound: () => ServiceError, what: string): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof RpcCallError && error.apiError?.statusCode === 404) throw notFound();
      if (error instanceof RpcCallError) throw unavailable(`Payments cannot reach ${what} right now. Please try again.`);
      throw error;
    }
  }
}
