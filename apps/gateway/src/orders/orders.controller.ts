import { Controller, Inject, Param } from '@nestjs/common';
import {
  HttpRoutes,
  Rpc,
  type CheckoutRequest,
  type CheckoutResponse,
  type Order,
  type PaymentRedirect,
  type RegisteredResponse,
  type RequestMeta,
  type SpecialRegistrationRequest,
} from '@digicard/contracts';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { ValidBody } from '../http/route-params.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { OrderFlows } from './order-flows.js';

/** The shop's checkout and the signed-in buyer's orders; the services take the account from `meta` only. */
@Controller()
export class OrdersController {
  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(OrderFlows) private readonly flows: OrderFlows,
  ) {}

  @Route(HttpRoutes.checkout)
  checkout(@ValidBody() basket: CheckoutRequest, @Meta() meta: RequestMeta): Promise<CheckoutResponse> {
    return this.flows.checkout(basket, meta);
  }

  /** The special offer's sign-up and payment (/registration): see OrderFlows.registerSpecial. */
  @Route(HttpRoutes.registerSpecial)
  registerSpecial(
    @ValidBody() body: SpecialRegistrationRequest,
    @Meta() meta: RequestMeta,
  ): Promise<CheckoutResponse | RegisteredResponse> {
    return this.flows.registerSpecial(body, meta);
  }

  @Route(HttpRoutes.listOrders)
  list(@Meta() meta: RequestMeta): Promise<{ orders: Order[] }> {
    return this.rpc.call(Rpc.listOrders, {}, meta);
  }

  @Route(HttpRoutes.getOrder)
  get(@Param('orderId') orderId: string, @Meta() meta: RequestMeta): Promise<Order> {
    return this.rpc.call(Rpc.getOrder, { orderId }, meta);
  }

  @Route(HttpRoutes.payOrder)
  pay(@Param('orderId') orderId: string, @Meta() meta: RequestMeta): Promise<PaymentRedirect> {
    return this.rpc.call(Rpc.startOrderPayment, { orderId }, meta);
  }
}
