import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Events } from '@digicard/contracts';
import { OnEvent, type EventContext } from '@digicard/server';
import { OrdersRepository } from '../../orders/orders.repository.js';
import { FulfilmentRepository } from '../fulfilment.repository.js';
import { CustomersRepository } from '../customers.repository.js';
import { ProofsRepository } from '../proofs.repository.js';
import { ProofQueue } from '../proof.producer.js';

type Data<E extends { data: z.ZodType }> = z.output<E['data']>;

/**
 * What renders a proof: the order's payment (this service's own `orders.order.paid`, so the job is queued only
 * once the payment is committed), and a change of the buyer's profile while a proof may still change. The job is
 * queued after the handler's transaction commits, one per order (see `ProofQueue`), so a redelivery or a burst of
 * saves queues nothing new; should Redis be away, the event is handled again later (and `ProofRequeue` queues any
 * proof left `rendering`).
 */
@Injectable()
export class ProofTriggers {
  constructor(
    @Inject(FulfilmentRepository) private readonly repo: FulfilmentRepository,
    @Inject(CustomersRepository) private readonly customers: CustomersRepository,
    @Inject(ProofsRepository) private readonly proofRows: ProofsRepository,
    @Inject(OrdersRepository) private readonly orders: OrdersRepository,
    @Inject(ProofQueue) private readonly proofs: ProofQueue,
  ) {}

  @OnEvent(Events.orderPaid)
  orderPaid(order: Data<typeof Events.orderPaid>, { eventId, afterCommit }: EventContext): Promise<void> {
    afterCommit(() => this.proofs.enqueue({ orderId: order.orderId, reason: 'paid', sourceId: eventId }));
    return Promise.resolve();
  }

  @OnEvent(Events.profileUpdated)
  async profileUpdated(change: Data<typeof Events.profileUpdated>, { tx, eventId, afterCommit }: EventContext): Promise<void> {
    await this.customers.setCustomerUsername(tx, change.accountId, change.username);
    for (const orderId of await this.repo.awaitingApprovalOf(tx, change.accountId)) {
      // Locked until this commits, so the order cannot be approved while its proof is marked for a new render.
      await this.orders.lockById(tx, orderId);
      await this.proofRows.proofRendering(tx, orderId);
      afterCommit(() => this.proofs.enqueue({ orderId, reason: 'profile-updated', sourceId: eventId }));
    }
  }
}
