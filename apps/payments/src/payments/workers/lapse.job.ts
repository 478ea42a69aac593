import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from '@digicard/config';
import type { Database } from '@digicard/db';
import type { OutboxRelay } from '@digicard/messaging';
import { DATABASE, LOGGER, OUTBOX_RELAY } from '@digicard/server';
import { Clock } from '../clock.js';
import { recordMembershipChanged } from '../membership.js';
import { SubscriptionsRepository } from '../subscriptions.repository.js';

/** Ends memberships whose time is up: cancelled ones at paid_until, past-due ones at the end of the grace. */
@Injectable()
export class LapseJob {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SubscriptionsRepository) private readonly subscriptions: SubscriptionsRepository,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  /** Returns how many ended. */
  async run(): Promise<number> {
    const now = this.clock.now();
    let ended = 0;
    for (const candidate of await this.subscriptions.lapsed(this.db, now)) {
      const done = await this.db.transaction(async (tx) => {
        const sub = await this.subscriptions.subscription(tx, candidate.id, true);
        // Paid or changed meanwhile: leave it.
        const due =
          sub &&
          ((sub.status === 'cancelling' && sub.paidUntil && sub.paidUntil <= now) ||
            (sub.status === 'past-due' && sub.graceUntil && sub.graceUntil <= now));
        if (!sub || !due) return false;
        const updated = await this.subscriptions.updateSubscription(tx, sub.id, { status: 'ended' }, now);
        await recordMembershipChanged(tx, this.subscriptions, updated, now);
        return true;
      });
      if (done) ended += 1;
    }
    if (ended > 0) {
      this.logger.info({ ended }, 'memberships lapsed');
      this.relay?.kick();
    }
    return ended;
  }
}
