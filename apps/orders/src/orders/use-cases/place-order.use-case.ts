import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { catalogueColour, colourRefusal, ErrorCode, Events, type CheckoutRequest, type Order, unitPrice } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay, type Transaction } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import { CatalogueRepository } from '../../catalogue/catalogue.repository.js';
import { outbox } from '../../db/schema.js';
import { toOrder } from '../orders.mapping.js';
import { OrdersRepository, type NewOrderLine, type StoredOrder } from '../orders.repository.js';
import { newOrderReference } from '../order-reference.js';

/** A clash of 6 characters out of 30 is rare; a few more draws make a failure practically impossible. */
const REFERENCE_ATTEMPTS = 5;

/**
 * Checkout: the basket's ids, colours and quantities, priced here from the catalogue (a special at its special price,
 * anything else at its normal price; never a price from the browser), kept awaiting payment with
 * `orders.order.placed` in the same transaction.
 */
@Injectable()
export class PlaceOrder {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(CatalogueRepository) private readonly catalogue: CatalogueRepository,
    @Inject(OrdersRepository) private readonly orders: OrdersRepository,
  ) {}

  async execute(accountId: string, request: CheckoutRequest): Promise<Order> {
    const stored = await this.db.transaction((tx) => this.placeIn(tx, accountId, request));
    this.relay?.kick();
    return toOrder(stored);
  }

  /** The order and its event in the caller's transaction (the sign-up's specials are placed in their event's). */
  async placeIn(tx: Transaction, accountId: string, request: CheckoutRequest): Promise<StoredOrder> {
    const items = new Map(
      (
        await this.catalogue.byIds(
          tx,
          request.items.map((i) => i.id),
        )
      ).map((row) => [row.id, row]),
    );
    const unknown = request.items.flatMap((line, index) => (items.has(line.id) ? [] : [[index, line.id] as const]));
    if (unknown.length > 0) {
      throw new ServiceError({
        statusCode: 400,
        code: ErrorCode.ValidationFailed,
        message: 'Please correct the highlighted fields.',
        // The same keys as the gateway's own validation of the basket, so the browser marks the right line.
        fieldErrors: Object.fromEntries(unknown.map(([index, id]) => [`items.${index}.id`, [`“${id}” is not in the shop.`]])),
      });
    }
    // The colour is one the item comes in, spelt as the catalogue spells it; none named (a basket kept from before
    // colours were chosen): the item's first, the colour such an order always had.
    const colours = request.items.map(({ id, colour }) => {
      const item = items.get(id)!;
      return colour === undefined ? (item.colors[0] ?? null) : catalogueColour(item, colour);
    });
    const wrongColour = request.items.flatMap((line, index) =>
      colours[index] ? [] : [[index, colourRefusal(items.get(line.id)!)] as const],
    );
    if (wrongColour.length > 0) {
      throw new ServiceError({
        statusCode: 400,
        code: ErrorCode.ValidationFailed,
        message: 'Please choose a colour the card comes in.',
        fieldErrors: Object.fromEntries(wrongColour.map(([index, message]) => [`items.${index}.colour`, [message]])),
      });
    }
    const lines: NewOrderLine[] = request.items.map(({ id, quantity }, index) => {
      const item = items.get(id)!;
      const unitPriceCents = unitPrice(item);
      return {
        itemId: id,
        kind: item.kind,
        name: item.name,
        colour: colours[index]!,
        quantity,
        unitPriceCents,
        lineTotalCents: unitPriceCents * quantity,
        includedGoldMonths: item.includedGoldMonths,
      };
    });
    const totalCents = lines.reduce((sum, line) => sum + line.lineTotalCents, 0);
    let placed: StoredOrder | null = null;
    for (let attempt = 0; !placed && attempt < REFERENCE_ATTEMPTS; attempt++) {
      placed = await this.orders.insert(tx, { id: randomUUID(), reference: newOrderReference(), accountId, totalCents }, lines);
    }
    if (!placed) throw new Error(`no free order reference after ${REFERENCE_ATTEMPTS} attempts`);
    const order = toOrder(placed);
    await recordEvent(tx, outbox, Events.orderPlaced, {
      orderId: order.id,
      accountId,
      reference: order.reference,
      lines: order.lines,
      totalCents: order.totalCents,
      at: order.createdAt,
    });
    return placed;
  }
}
