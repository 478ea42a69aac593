import { Inject, Injectable } from '@nestjs/common';
import type { Order, OrderList, PageRequest } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, ServiceError, pageStart, toPage } from '@digicard/server';
import { toOrder } from './orders.mapping.js';
import { OrdersRepository } from './orders.repository.js';

/** The same answer for an unknown order and for someone else's: nobody learns that an id exists. */
const NOT_FOUND = 'Order not found.';

/** Orders as their buyer reads them, and as payments reads one before asking PayFast for it. */
@Injectable()
export class OrdersQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OrdersRepository) private readonly orders: OrdersRepository,
  ) {}

  /** A page of the account's own orders, newest first. */
  async list(accountId: string, request: PageRequest): Promise<OrderList> {
    const rows = await this.orders.pageFor(this.db, accountId, pageStart(request), request.limit);
    const { items, nextCursor } = await toPage(rows, request.limit, (page) => page.map(toOrder));
    return { orders: items, nextCursor };
  }

  /** One of the account's own orders; another account's is 404, exactly like an unknown id. */
  async own(accountId: string, orderId: string): Promise<Order> {
    const stored = await this.orders.byId(this.db, orderId);
    if (!stored || stored.order.accountId !== accountId) throw ServiceError.notFound(NOT_FOUND);
    return toOrder(stored);
  }

  /** For payments (a service call): the order and whose it is, so it can check the payer is the buyer. */
  async forPayment(orderId: string): Promise<{ order: Order; accountId: string }> {
    const stored = await this.orders.byId(this.db, orderId);
    if (!stored) throw ServiceError.notFound(NOT_FOUND);
    return { order: toOrder(stored), accountId: stored.order.accountId };
  }
}
