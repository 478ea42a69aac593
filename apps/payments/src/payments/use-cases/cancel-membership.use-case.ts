import { Inject, Injectable } from '@nestjs/common';
import type { Billing } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import type { Database } from '@digicard/db';
import type { OutboxRelay } from '@digicard/messaging';
import { DATABASE, LOGGER, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import { Clock } from '../clock.js';
import { unavailable } from '../errors.js';
import { recordSubscriptionCancelled } from '../membership.js';
import { PayFastClient } from '../clients/payfast.client.js';
import { SubscriptionsRepository } from '../subscriptions.repository.js';
import { GetBilling } from './get-billing.use-case.js';

/**
 * Cancels at PayFast first (so no further charge); the tier stays until paid_until, when the lapse job ends it.
 * `payments.subscription.cancelled` (the owner's email) is recorded with the change, once.
 */
@Injectable()
export class CancelMembership {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(PayFastClient) private readonly payfast: PayFastClient,
    @Inject(SubscriptionsRepository) private readonly subscriptions: SubscriptionsRepository,
    @Inject(GetBilling) private readonly billing: GetBilling,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(accountId: string): Promise<Billing> {
    const sub = await this.subscriptions.holdingSubscription(this.db, accountId);
    if (!sub) throw ServiceError.notFound('You have no membership to cancel.');
    if (sub.status !== 'cancelling') {
      if (sub.token) {
        const answer = await this.payfast.cancelSubscription(sub.token, this.clock.now());
        if (!answer.ok) {
          this.logger.warn(
            { subscriptionId: sub.id, status: answer.status, detail: answer.detail },
            'PayFast did not cancel the subscription',
          );
          throw unavailable('PayFast could not cancel your membership right now. Please try again.');
        }
      }
      // A CANCELLED ITN may have got here first (it then sent the email): only a row still holding the tier moves.
      const now = this.clock.now();
      const moved = await this.db.transaction(async (tx) => {
        const current = await this.subscriptions.subscription(tx, sub.id, true);
        if (!current || current.status === 'cancelling' || current.status === 'ended') return false;
        const updated = await this.subscriptions.updateSubscription(tx, sub.id, { status: 'cancelling', graceUntil: null }, now);
        await recordSubscriptionCancelled(tx, updated, 'owner', now);
        return true;
      });
      if (moved) this.relay?.kick();
    }
    return this.billing.execute(accountId);
  }
}
