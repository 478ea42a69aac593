import { Controller, Inject } from '@nestjs/common';
import { Rpc } from '@digicard/contracts';
import { Handles, type RpcBody, type SignedInMeta } from '@digicard/server';
import { OrdersQueries } from './orders-queries.js';
import { PlaceOrder } from './use-cases/place-order.use-case.js';

/** Checkout and the buyer's orders (always the caller's own: the account comes from `meta`), and payments' read. */
@Controller()
export class OrdersController {
  constructor(
    @Inject(PlaceOrder) private readonly placeOrder: PlaceOrder,
    @Inject(OrdersQueries) private readonly queries: OrdersQueries,
  ) {}

  @Handles(Rpc.placeOrder)
  place(basket: RpcBody<typeof Rpc.placeOrder>, meta: SignedInMeta) {
    return this.placeOrder.execute(meta.userId, basket);
  }

  @Handles(Rpc.listOrders)
  list(page: RpcBody<typeof Rpc.listOrders>, meta: SignedInMeta) {
    return this.queries.list(meta.userId, page);
  }

  @Handles(Rpc.getOrder)
  get({ orderId }: RpcBody<typeof Rpc.getOrder>, meta: SignedInMeta) {
    return this.queries.own(meta.userId, orderId);
  }

  @Handles(Rpc.orderForPayment)
  forPayment({ orderId }: RpcBody<typeof Rpc.orderForPayment>) {
    return this.queries.forPayment(orderId);
  }
}
