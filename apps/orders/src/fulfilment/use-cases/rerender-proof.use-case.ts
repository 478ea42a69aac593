import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { PrintOrder } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { Logger } from '@digicard/config';
import { DATABASE, LOGGER, QueueUnavailableError, ServiceError } from '@digicard/server';
import { OrdersRepository } from '../../orders/orders.repository.js';
import { FulfilmentQueries } from '../fulfilment-queries.js';
import { ProofsRepository } from '../proofs.repository.js';
import { moveRefused } from '../order-state-machine.js';
import { ProofQueue } from '../proof.producer.js';

/** The print team renders a proof again (after a failed render, or after the owner asked for changes). */
@Injectable()
export class RerenderProof {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OrdersRepository) private readonly orders: OrdersRepository,
    @Inject(ProofsRepository) private readonly proofRows: ProofsRepository,
    @Inject(FulfilmentQueries) private readonly queries: FulfilmentQueries,
    @Inject(ProofQueue) private readonly proofs: ProofQueue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(orderId: string): Promise<PrintOrder> {
    await this.db.transaction(async (tx) => {
      const order = await this.orders.lockById(tx, orderId);
      if (!order || order.status === 'awaiting-payment') throw ServiceError.notFound('Order not found.');
      if (!['paid', 'proof-ready', 'changes-requested'].includes(order.status))
        throw moveRefused('Once approved, the proof is what gets printed.');
      await this.proofRows.proofRendering(tx, orderId);
    });
    try {
      await this.proofs.enqueue({ orderId, reason: 'requested', sourceId: randomUUID() });
    } catch (error) {
      if (!(error instanceof QueueUnavailableError)) throw error;
      // The proof is marked rendering: ProofRequeue queues it once Redis is back.
      this.logger.warn({ orderId, err: error }, 'proof render not queued yet (Redis away); it will be');
    }
    return this.queries.printOrder(orderId);
  }
}
