import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CrmMessages } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, ServiceError, type SignedInMeta } from '@digicard/server';
import { CrmWebhookQueue } from '../crm-webhook.producer.js';
import { ProfilesClient } from '../profiles.client.js';
import { webhookBody } from '../webhook-body.js';
import { WebhookDeliveriesRepository } from '../webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from '../webhook-endpoints.repository.js';

/** "Send test lead": a sample lead (type `lead.test`), signed, retried and logged exactly like a real one. */
@Injectable()
export class SendTestWebhook {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(ProfilesClient) private readonly profiles: ProfilesClient,
    @Inject(WebhookEndpointsRepository) private readonly endpoints: WebhookEndpointsRepository,
    @Inject(WebhookDeliveriesRepository) private readonly deliveries: WebhookDeliveriesRepository,
    @Inject(CrmWebhookQueue) private readonly queue: CrmWebhookQueue,
  ) {}

  async execute(meta: SignedInMeta): Promise<{ deliveryId: string; message: string }> {
    await this.profiles.requireCrm(meta.userId, meta.requestId);
    const endpoint = await this.endpoints.endpointOf(this.db, meta.userId);
    if (!endpoint) throw ServiceError.notFound(CrmMessages.noEndpoint);
    const eventId = randomUUID();
    const now = new Date();
    const sample = {
      leadId: randomUUID(),
      kind: 'lead' as const,
      firstName: 'Test',
      lastName: 'Lead',
      email: 'test.lead@example.com',
      phone: '+27821234567',
      message: 'This is a test lead from DigiCard.',
      createdAt: now.toISOString(),
    };
    const delivery = await this.deliveries.insertDelivery(this.db, {
      accountId: meta.userId,
      eventId,
      type: 'lead.test',
      url: endpoint.url,
      body: webhookBody(eventId, 'lead.test', sample, now),
      summary: 'Test lead',
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    });
    await this.queue.enqueue(eventId, delivery!.id);
    return { deliveryId: delivery!.id, message: 'Test lead sent. Its delivery shows below.' };
  }
}
