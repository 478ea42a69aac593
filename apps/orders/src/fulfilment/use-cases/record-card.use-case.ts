import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, type PrintOrder } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, ServiceError } from '@digicard/server';
import { OrdersRepository } from '../../orders/orders.repository.js';
import { FulfilmentQueries } from '../fulfilment-queries.js';
import { CardsRepository } from '../cards.repository.js';
import { moveRefused } from '../order-state-machine.js';

/**
 * The print team records the UID of the NFC chip it encoded for a card (the serial is the order's, printed on the
 * card). While the order is printing only: before, nothing is printed; after, the record is closed. A UID is one
 * chip's: another card with it is a conflict.
 */
@Injectable()
export class RecordCardChip {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OrdersRepository) private readonly orders: OrdersRepository,
    @Inject(CardsRepository) private readonly cards: CardsRepository,
    @Inject(FulfilmentQueries) private readonly queries: FulfilmentQueries,
  ) {}

  async execute(orderId: string, serial: string, nfcUid: string): Promise<PrintOrder> {
    await this.db.transaction(async (tx) => {
      const order = await this.orders.lockById(tx, orderId);
      if (!order) throw ServiceError.notFound('Order not found.');
      const card = await this.cards.cardBySerial(tx, serial);
      if (!card || card.orderId !== orderId) throw ServiceError.notFound('That card is not part of this order.');
      if (order.status !== 'printing') throw moveRefused('NFC UIDs are recorded while the order is printing.');
      if (!(await this.cards.setNfcUid(tx, serial, nfcUid))) {
        throw new ServiceError({
          statusCode: 409,
          code: ErrorCode.Conflict,
          message: 'Another card already has that NFC UID.',
          fieldErrors: { nfcUid: ['Another card already has that NFC UID.'] },
        });
      }
    });
    return this.queries.printOrder(orderId);
  }
}
