import { Inject, Injectable } from '@nestjs/common';
import type { MoveOrder, PrintOrder } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import { OrdersRepository } from '../../orders/orders.repository.js';
import { FulfilmentQueries } from '../fulfilment-queries.js';
import { OrderStateMachine } from '../order-state-machine.js';

/** The print console moves an order on (printing, NFC encoded, shipped, delivered; cancelled, refunded). */
@Injectable()
export class MoveOrderByPrintTeam {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(OrdersRepository) private readonly orders: OrdersRepository,
    @Inject(OrderStateMachine) private readonly states: OrderStateMachine,
    @Inject(FulfilmentQueries) private readonly queries: FulfilmentQueries,
  ) {}

  async execute(printerId: string, orderId: string, move: MoveOrder): Promise<PrintOrder> {
    await this.db.transaction(async (tx) => {
      const order = await this.orders.lockById(tx, orderId);
      if (!order) throw ServiceError.notFound('Order not found.');
      const shipment = move.courier && move.trackingNumber ? { courier: move.courier, trackingNumber: move.trackingNumber } : undefined;
      await this.states.move(tx, order, move.to, { by: 'print', accountId: printerId }, { note: move.note ?? null, shipment });
    });
    this.relay?.kick();
    return this.queries.movedOrder(orderId);
  }
}
