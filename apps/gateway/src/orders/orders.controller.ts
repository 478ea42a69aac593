import { Controller, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  HttpRoutes,
  Rpc,
  type Card,
  type OrderDetail,
  type OrderDetailList,
  type RequestChanges,
  type SetCardDisabled,
  type AssignCard,
  type CheckoutRequest,
  type CheckoutResponse,
  type Order,
  type OrderList,
  type PageRequest,
  type PaymentRedirect,
  type RegisteredResponse,
  type RequestMeta,
  type SpecialRegistrationRequest,
} from '@digicard/contracts';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { ValidBody, ValidQuery } from '../http/route-params.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { sendFile } from './file-response.js';
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
  list(@ValidQuery() page: PageRequest, @Meta() meta: RequestMeta): Promise<OrderList> {
    return this.rpc.call(Rpc.listOrders, page, meta);
  }

  @Route(HttpRoutes.getOrder)
  get(@Param('orderId') orderId: string, @Meta() meta: RequestMeta): Promise<Order> {
    return this.rpc.call(Rpc.getOrder, { orderId }, meta);
  }

  @Route(HttpRoutes.payOrder)
  pay(@Param('orderId') orderId: string, @Meta() meta: RequestMeta): Promise<PaymentRedirect> {
    return this.rpc.call(Rpc.startOrderPayment, { orderId }, meta);
  }

  @Route(HttpRoutes.cancelOrder)
  cancel(@Param('orderId') orderId: string, @Meta() meta: RequestMeta): Promise<OrderDetail> {
    return this.rpc.call(Rpc.cancelOrder, { orderId }, meta);
  }

  @Route(HttpRoutes.listOrderDetails)
  details(@ValidQuery() page: PageRequest, @Meta() meta: RequestMeta): Promise<OrderDetailList> {
    return this.rpc.call(Rpc.listOrderDetails, page, meta);
  }

  @Route(HttpRoutes.approveProof)
  approve(@Param('orderId') orderId: string, @Meta() meta: RequestMeta): Promise<OrderDetail> {
    return this.rpc.call(Rpc.approveProof, { orderId }, meta);
  }

  @Route(HttpRoutes.requestProofChanges)
  requestChanges(@Param('orderId') orderId: string, @ValidBody() body: RequestChanges, @Meta() meta: RequestMeta): Promise<OrderDetail> {
    return this.rpc.call(Rpc.requestProofChanges, { orderId, ...body }, meta);
  }

  @Route(HttpRoutes.getOwnProofPdf)
  async proofPdf(@Param('orderId') orderId: string, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    sendFile(res, await this.rpc.call(Rpc.ownProofFile, { orderId, kind: 'pdf' }, meta));
  }

  @Route(HttpRoutes.getOwnProofPng)
  async proofPng(@Param('orderId') orderId: string, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    sendFile(res, await this.rpc.call(Rpc.ownProofFile, { orderId, kind: 'png' }, meta));
  }

  @Route(HttpRoutes.setCardDisabled)
  setCardDisabled(@Param('serial') serial: string, @ValidBody() body: SetCardDisabled, @Meta() meta: RequestMeta): Promise<Card> {
    return this.rpc.call(Rpc.setCardDisabled, { serial, ...body }, meta);
  }

  /** The team leader hands a card to a rep (orders checks the card is the team's and the rep is theirs). */
  @Route(HttpRoutes.assignCard)
  assignCard(@Param('serial') serial: string, @ValidBody() body: AssignCard, @Meta() meta: RequestMeta): Promise<Card> {
    return this.rpc.call(Rpc.assignCard, { serial, ...body }, meta);
  }
}
