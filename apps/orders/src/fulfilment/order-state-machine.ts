import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, Events, OrderMoves, type OrderActor, type OrderStatus } from '@digicard/contracts';
import { recordEvent, type Transaction } from '@digicard/messaging';
import { ServiceError } from '@digicard/server';
import { outbox } from '../db/schema.js';
import type { OrderRow } from '../orders/orders.repository.js';
import { FulfilmentRepository } from './fulfilment.repository.js';
import { CardsRepository } from './cards.repository.js';

/** How each state reads in an error message and an email. */
export const StatusLabels: Record<OrderStatus, string> = {
  'awaiting-payment': 'awaiting payment',
  paid: 'paid',
  cancelled: 'cancelled',
  'proof-ready': 'proof ready',
  'changes-requested': 'changes requested',
  approved: 'approved',
  printing: 'printing',
  'nfc-encoded': 'NFC encoded',
  shipped: 'shipped',
  delivered: 'delivered',
  refunded: 'refunded',
};

export const moveRefused = (message: string): ServiceError =>
  new ServiceError({ statusCode: 409, code: ErrorCode.OrderMoveNotAllowed, message });

export interface MoveActor {
  by: OrderActor;
  /** The account that asked (null for the system). */
  accountId: string | null;
}

/**
 * The one place an order changes state: the move must be in `OrderMoves` for this actor, and is then written with
 * its history row and `orders.order.state-changed` (the owner's email follows from it) in the caller's transaction.
 * The order must be locked by the caller (`OrdersRepository.lockById`).
 */
@Injectable()
export class OrderStateMachine {
  constructor(
    @Inject(FulfilmentRepository) private readonly repo: FulfilmentRepository,
    @Inject(CardsRepository) private readonly cards: CardsRepository,
  ) {}

  async move(
    tx: Transaction,
    order: OrderRow,
    to: OrderStatus,
    actor: MoveActor,
    details: { note?: string | null; shipment?: { courier: string; trackingNumber: string } } = {},
  ): Promise<OrderRow> {
    const from = order.status;
    const allowed = OrderMoves.some((m) => m.from === from && m.to === to && m.by.includes(actor.by));
    if (!allowed) throw moveRefused(`An order that is ${StatusLabels[from]} cannot become ${StatusLabels[to]}.`);
    if (to === 'refunded' && order.paidAt === null) throw moveRefused('Only a paid order can be refunded.');
    if (to === 'nfc-encoded') {
      const missing = await this.cards.cardsWithoutUid(tx, order.id);
      if (missing > 0) throw moveRefused(`Record the NFC UID of every card first (${missing} still without one).`);
    }
    if (to === 'shipped' && !details.shipment) throw moveRefused('Shipping needs the courier and the tracking number.');
    const at = new Date();
    const moved = await this.repo.setStatus(tx, order.id, from, to, to === 'shipped' ? details.shipment : undefined);
    const note = details.note?.trim() ? details.note.trim() : null;
    await this.repo.addHistory(tx, {
      orderId: order.id,
      fromStatus: from,
      toStatus: to,
      actor: actor.by,
      actorAccountId: actor.accountId,
      note,
      at,
    });
    await recordEvent(tx, outbox, Events.orderStateChanged, {
      orderId: order.id,
      accountId: order.accountId,
      reference: order.reference,
      from,
      to,
      by: actor.by,
      note,
      courier: moved.courier,
      trackingNumber: moved.trackingNumber,
      at: at.toISOString(),
    });
    return moved;
  }
}
