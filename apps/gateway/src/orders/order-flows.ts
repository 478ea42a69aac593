import { Inject, Injectable } from '@nestjs/common';
import { Rpc, type CheckoutRequest, type CheckoutResponse, type RequestMeta } from '@digicard/contracts';
import { GatewayRpc } from '../rpc/rpc.client.js';

/** Checkout: two services in turn, orders (keeps and prices the order), then payments (where to pay it). */
@Injectable()
export class OrderFlows {
  constructor(@Inject(GatewayRpc) private readonly rpc: GatewayRpc) {}

  /**
   * Places the order, then asks payments for the signed PayFast request. When payments does not answer, the order
   * stays awaiting payment and the client gets that error (503): `payOrder` (POST /api/orders/:orderId/payment)
   * asks for the payment again for the same order, so nothing is placed twice.
   */
  async checkout(basket: CheckoutRequest, meta: RequestMeta): Promise<CheckoutResponse> {
    const order = await this.rpc.call(Rpc.placeOrder, basket, meta);
    const { redirectUrl } = await this.rpc.call(Rpc.startOrderPayment, { orderId: order.id }, meta);
    return { order, redirectUrl };
  }
}
