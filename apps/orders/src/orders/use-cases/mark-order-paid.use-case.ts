import { Inject, Injectable } from '@nestjs/common';
import { Events, type PaymentCompleted } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { recordEvent } from '@digicard/messaging';
import { LOGGER, OnEvent, type EventContext } from '@digicard/server';
import { outbox } from '../../db/schema.js';
import { toOrder } from '../orders.mapping.js';
import { OrdersRepository } from '../orders.repository.js';

/**
 * PayFast took the money for an order (payments checked the ITN): awaiting payment becomes paid, with
 * `orders.order.paid` (the receipt email follows from it) in the same transaction as the change and the record of
 * the event. A payment for an unknown, paid or cancelled order changes nothing and is logged: a redelivery, or a
 * case for support, never a second paid event.
 */
@Injectable()
export class MarkOrderPaid {
  constructor(
    @Inject(OrdersRepository) private readonly orders: OrdersRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @OnEvent(Events.paymentCompleted)
  async execute(payment: PaymentCompleted, { tx, eventId }: EventContext): Promise<void> {
    if (payment.kind !== 'order') return;
    const context = { eventId, paymentId: payment.paymentId, orderId: payment.orderId };
    const order = payment.orderId ? await this.orders.lockById(tx, payment.orderId) : null;
    if (!order) {
      this.logger.warn(context, 'payment for an unknown order ignored');
      return;
    }
    if (order.status !== 'awaiting-payment') {
      this.logger.warn({ ...context, status: order.status }, `payment for an order that is ${order.status} ignored`);
      return;
    }
    // Payments checks both against the order before it publishes; a mismatch here is a bug to look at, not a sale.
    if (order.accountId !== payment.accountId || order.totalCents !== payment.amountCents) {
      this.logger.error({ ...context, amountCents: payment.amountCents, totalCents: order.totalCents }, 'payment does not match its order: ignored');
      return;
    }
    const paid = toOrder(await this.orders.markPaid(tx, order.id, new Date(payment.completedAt)));
    await recordEvent(tx, outbox, Events.orderPaid, {
      orderId: paid.id,
      accountId: order.accountId,
      reference: paid.reference,
      lines: paid.lines,
      totalCents: paid.totalCents,
      at: paid.paidAt!,
    });
  }
}
