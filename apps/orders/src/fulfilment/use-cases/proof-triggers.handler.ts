import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Events } from '@digicard/contracts';
import { OnEvent, type EventContext } from '@digicard/server';
import { OrdersRepository } from '../../orders/orders.repository.js';
import { FulfilmentRepository } from '../fulfilment.repository.js';
import { ProofQueue } from '../proof-queue.js';

type Data<E extends { data: z.ZodType }> = z.output<E['data']>;

/**
 * What renders a proof: the order's payment (this service's own `orders.order.paid`, so the job is queued only
 * once the payment is committed), and a change of the buyer's profile while a proof may still change. The job id
 * derives from the event, so a redelivery queues nothing new.
 */
@Injectable()
export class ProofTriggers {
  constructor(
    @Inject(FulfilmentRepository) private readonly repo: FulfilmentRepository,
    @Inject(OrdersRepository) private readonly orders: OrdersRepository,
    @Inject(ProofQueue) private readonly proofs: ProofQueue,
  ) {}

  @OnEvent(Events.orderPaid)
  async orderPaid(order: Data<typeof Events.orderPaid>, { eventId }: EventContext): Promise<void> {
    await this.proofs.enqueue({ orderId: order.orderId, reason: 'paid', sourceId: eventId });
  }

  @OnEvent(Events.profileUpdated)
  async profileUpdated(change: Data<typeof Events.profileUpdated>, { tx, eventId }: EventContext): Promise<void> {
    await this.repo.setCustomerUsername(tx, change.accountId, change.username);
    for (const orderId of await this.repo.awaitingApprovalOf(tx, change.accountId)) {
      // Locked until this commits: a worker that picks the job up at once waits here, then renders the new profile.
      await this.orders.lockById(tx, orderId);
      await this.repo.proofRendering(tx, orderId);
      await this.proofs.enqueue({ orderId, reason: 'profile-updated', sourceId: eventId });
    }
  }
}
