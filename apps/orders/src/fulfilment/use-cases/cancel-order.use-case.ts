import { Inject, Injectable } from '@nestjs/common';
import type { OrderDetail } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import { OrdersRepository } from '../../orders/orders.repository.js';
import { FulfilmentQueries } from '../fulfilment-queries.js';
import { OrderStateMachine } from '../order-state-machine.js';

/**
 * The owner cancels one of their own orders before paying it (a special offer they changed their mind about, say).
 * Another's order is 404, like an unknown id; a paid or cancelled one is refused by the state machine (409). A
 * payment that still arrives for it (a PayFast page left open) revives it: see MarkOrderPaid.
 */
@Injectable()
export class CancelOrder {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(OrdersRepository) private readonly orders: OrdersRepository,
    @Inject(OrderStateMachine) private readonly states: OrderStateMachine,
    @Inject(FulfilmentQueries) private readonly queries: FulfilmentQueries,
  ) {}

  async execute(accountId: string, orderId: string): Promise<OrderDetail> {
    await this.db.transaction(async (tx) => {
      const order = await this.orders.lockById(tx, orderId);
      if (!order || order.accountId !== accountId) throw ServiceError.notFound('Order not found.');
      await this.states.move(tx, order, 'cancelled', { by: 'owner', accountId }, { note: 'Cancelled by the owner before payment.' });
    });
    this.relay?.kick();
    return this.queries.ownDetail(accountId, orderId);
  }
}
