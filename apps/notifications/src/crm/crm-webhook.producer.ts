import type { z } from 'zod';
import { CrmWebhookJobSchema, crmWebhookJobId } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { QueueProducer } from '@digicard/server';
import { type WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';

export type CrmWebhookJob = z.output<typeof CrmWebhookJobSchema>;

/** The `crm-webhook` queue's producer: one job per delivery, its id derived from the lead's event (or the test's id). */
export class CrmWebhookQueue {
  constructor(
    private readonly producer: QueueProducer<CrmWebhookJob>,
    private readonly attempts: number,
    private readonly db: Database,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  async enqueue(eventId: string, deliveryId: string): Promise<void> {
    const data = CrmWebhookJobSchema.parse({ deliveryId });
    await this.producer.add('deliver', data, {
      jobId: crmWebhookJobId(eventId),
      attempts: this.attempts,
      backoff: { type: 'crm-schedule' },
    });
  }

  /**
   * Queues again every delivery still owed whose next attempt is overdue since before `overdueSince`: after Redis lost
   * its queue. The job id is the event's, so a job Redis still has (waiting, delayed, running or done) makes the add
   * a no-op, and an attempt is numbered by the attempts logged, so the schedule's length holds. Returns how many adds
   * were made; stops at the first that Redis refuses.
   */
  async requeueOwed(overdueSince: Date, limit = 500): Promise<number> {
    const owed = await this.deliveries.owedDeliveries(this.db, overdueSince, limit);
    for (const delivery of owed) await this.enqueue(delivery.eventId, delivery.id);
    return owed.length;
  }
}
