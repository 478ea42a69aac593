import { Inject, Injectable } from '@nestjs/common';
import type { OrderDetail } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import { OrdersRepository } from '../../orders/orders.repository.js';
import { FulfilmentQueries } from '../fulfilment-queries.js';
import { ProofsRepository } from '../proofs.repository.js';
import { moveRefused, OrderStateMachine } from '../order-state-machine.js';

/**
 * The owner's answer to a proof: approve it (it is printed as it is) or ask for changes with a note. Only their
 * own order (another's is 404, like an unknown id), only while the proof is ready and not being rendered again.
 */
@Injectable()
export class DecideProof {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(OrdersRepository) private readonly orders: OrdersRepository,
    @Inject(ProofsRepository) private readonly proofs: ProofsRepository,
    @Inject(OrderStateMachine) private readonly states: OrderStateMachine,
    @Inject(FulfilmentQueries) private readonly queries: FulfilmentQueries,
  ) {}

  approve(accountId: string, orderId: string): Promise<OrderDetail> {
    return this.decide(accountId, orderId, 'approved', null);
  }

  requestChanges(accountId: string, orderId: string, note: string): Promise<OrderDetail> {
    return this.decide(accountId, orderId, 'changes-requested', note);
  }

  private async decide(
    accountId: string,
    orderId: string,
    to: 'approved' | 'changes-requested',
    note: string | null,
  ): Promise<OrderDetail> {
    await this.db.transaction(async (tx) => {
      const order = await this.orders.lockById(tx, orderId);
      if (!order || order.accountId !== accountId) throw ServiceError.notFound('Order not found.');
      if (order.status === 'proof-ready') {
        const [proof] = await this.proofs.proofsOf(tx, [orderId]);
        if (proof?.status !== 'ready') throw moveRefused('The proof is being rendered again; please look at the new one first.');
      }
      await this.states.move(tx, order, to, { by: 'owner', accountId }, { note });
    });
    this.relay?.kick();
    return this.queries.ownDetail(accountId, orderId);
  }
}
