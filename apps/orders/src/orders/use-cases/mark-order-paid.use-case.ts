import { Inject, Injectable } from '@nestjs/common';
import { Events, MaterialSchema, type PaymentCompleted } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { recordEvent } from '@digicard/messaging';
import { LOGGER, type EventContext } from '@digicard/server';
import { CatalogueRepository } from '../../catalogue/catalogue.repository.js';
import { outbox } from '../../db/schema.js';
import { FulfilmentRepository } from '../../fulfilment/fulfilment.repository.js';
import { CardsRepository } from '../../fulfilment/cards.repository.js';
import { recordCardsAssigned } from '../../fulfilment/card-events.js';
import { ProofsRepository } from '../../fulfilment/proofs.repository.js';
import { newCardSerial } from '../order-reference.js';
import { toOrder } from '../orders.mapping.js';
import { OrdersRepository } from '../orders.repository.js';

/**
 * PayFast took the money for an order (payments checked the ITN): awaiting payment becomes paid, with
 * `orders.order.paid` (the receipt email follows from it) in the same transaction as the change and the record of
 * the event. An order cancelled before any payment (by its owner, or the print team) that is paid all the same (a
 * PayFast page left open) goes ahead as paid, its history saying so: the money is never kept for nothing. A payment
 * for an unknown or paid order changes nothing and is logged: a redelivery, or a case for support, never a second
 * paid event. Run by `OrderPayments` (handlers/order-payments.handler.ts) in the event's transaction.
 */
@Injectable()
export class MarkOrderPaid {
  constructor(
    @Inject(OrdersRepository) private readonly orders: OrdersRepository,
    @Inject(CatalogueRepository) private readonly catalogue: CatalogueRepository,
    @Inject(FulfilmentRepository) private readonly fulfilment: FulfilmentRepository,
    @Inject(CardsRepository) private readonly cards: CardsRepository,
    @Inject(ProofsRepository) private readonly proofs: ProofsRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(payment: PaymentCompleted, { tx, eventId }: EventContext): Promise<void> {
    if (payment.kind !== 'order') return;
    const context = { eventId, paymentId: payment.paymentId, orderId: payment.orderId };
    const order = payment.orderId ? await this.orders.lockById(tx, payment.orderId) : null;
    if (!order) {
      this.logger.warn(context, 'payment for an unknown order ignored');
      return;
    }
    const cancelledUnpaid = order.status === 'cancelled' && order.paidAt === null;
    if (order.status !== 'awaiting-payment' && !cancelledUnpaid) {
      this.logger.warn({ ...context, status: order.status }, `payment for an order that is ${order.status} ignored`);
      return;
    }
    // Payments checks both against the order before it publishes; a mismatch here is a bug to look at, not a sale.
    if (order.accountId !== payment.accountId || order.totalCents !== payment.amountCents) {
      this.logger.error(
        { ...context, amountCents: payment.amountCents, totalCents: order.totalCents },
        'payment does not match its order: ignored',
      );
      return;
    }
    const paid = toOrder(await this.orders.markPaid(tx, order.id, new Date(payment.completedAt)));
    if (cancelledUnpaid) this.logger.warn(context, 'payment for an order cancelled before payment: it goes ahead as paid');
    const note = cancelledUnpaid ? 'Paid after it was cancelled: the order goes ahead.' : null;
    await this.fulfilment.addHistory(tx, {
      orderId: order.id,
      fromStatus: order.status,
      toStatus: 'paid',
      actor: 'system',
      actorAccountId: null,
      note,
      at: new Date(paid.paidAt!),
    });
    const serials = await this.allocateCards(tx, order.id, order.accountId, paid.lines);
    // Profiles learns which page each new card opens (the buyer's), to count views through it there only.
    await recordCardsAssigned(
      tx,
      serials.map((serial) => ({ serial, accountId: order.accountId })),
      new Date(paid.paidAt!),
    );
    // The proof is on its way: the `proof-render` job is queued from `orders.order.paid` once this commits.
    await this.proofs.proofRendering(tx, order.id);
    await recordEvent(tx, outbox, Events.orderPaid, {
      orderId: paid.id,
      accountId: order.accountId,
      reference: paid.reference,
      lines: paid.lines,
      totalCents: paid.totalCents,
      at: paid.paidAt!,
    });
  }

  /**
   * One card per unit bought, each with its own serial (behind its NFC chip and QR code), the material of its
   * catalogue item and the colour the buyer chose for its line. Answers the serials made.
   */
  private async allocateCards(
    tx: EventContext['tx'],
    orderId: string,
    accountId: string,
    lines: Array<{ itemId: string; quantity: number; colour: string }>,
  ): Promise<string[]> {
    const serials: string[] = [];
    const items = new Map(
      (
        await this.catalogue.byIds(
          tx,
          lines.map((l) => l.itemId),
        )
      ).map((item) => [item.id, item]),
    );
    let position = 0;
    for (const line of lines) {
      const item = items.get(line.itemId);
      const material = MaterialSchema.safeParse(item?.material);
      if (!item || !material.success) {
        this.logger.warn({ orderId, itemId: line.itemId }, 'order line is not a card the print team knows: no card allocated');
        continue;
      }
      for (let unit = 0; unit < line.quantity; unit++) {
        const card = {
          orderId,
          accountId,
          position: position++,
          itemId: item.id,
          material: material.data,
          colour: line.colour || (item.colors[0] ?? 'White'),
        };
        let inserted: string | null = null;
        for (let attempt = 0; !inserted && attempt < 5; attempt++) {
          const serial = newCardSerial();
          if (await this.cards.insertCard(tx, { ...card, serial })) inserted = serial;
        }
        if (!inserted) throw new Error('no free card serial after 5 attempts');
        serials.push(inserted);
      }
    }
    return serials;
  }
}
