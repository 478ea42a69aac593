import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Events } from '@digicard/contracts';
import { can } from '@digicard/domain';
import type { EventContext } from '@digicard/server';
import { ProfilesClient } from './profiles.client.js';
import { CrmWebhookQueue } from './crm-webhook.producer.js';
import { leadSummary, webhookBody } from './webhook-body.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

/**
 * A new lead goes to its owner's CRM: when the owner has a webhook turned on and a tier with CRM (DigiGold and up, as
 * profiles says now), the delivery is recorded in the event's transaction (one per event id) and queued once that
 * has committed, with a job id derived from the event, so a redelivered event never posts twice. Called from `LeadEmails.leadCaptured`
 * (one consumer per event and service).
 */
@Injectable()
export class CrmHandoff {
  constructor(
    @Inject(WebhookEndpointsRepository) private readonly endpoints: WebhookEndpointsRepository,
    @Inject(WebhookDeliveriesRepository) private readonly deliveries: WebhookDeliveriesRepository,
    @Inject(ProfilesClient) private readonly profiles: ProfilesClient,
    @Inject(CrmWebhookQueue) private readonly queue: CrmWebhookQueue,
  ) {}

  async leadCaptured(lead: z.output<(typeof Events.leadCaptured)['data']>, { tx, eventId, afterCommit }: EventContext): Promise<void> {
    const endpoint = await this.endpoints.endpointOf(tx, lead.accountId);
    if (!endpoint?.enabled) return;
    if (!can(await this.profiles.membershipOf(lead.accountId, `event-${eventId}`), 'crm')) return;
    const now = new Date();
    const delivery =
      (await this.deliveries.insertDelivery(tx, {
        accountId: lead.accountId,
        eventId,
        type: 'lead.captured',
        url: endpoint.url,
        body: webhookBody(eventId, 'lead.captured', lead, now),
        summary: leadSummary(lead),
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      })) ?? (await this.deliveries.deliveryByEvent(tx, eventId));
    if (delivery) afterCommit(() => this.queue.enqueue(eventId, delivery.id));
  }

  /**
   * A deleted account: nothing of it stays here (its webhook, secret and the copies of its leads in the log). Called
   * from `AccountDeleted` (email/account-deleted.handler.ts; one consumer per event and service).
   */
  async accountDeleted({ accountId }: z.output<(typeof Events.userDeleted)['data']>, { tx }: EventContext): Promise<void> {
    await this.endpoints.forget(tx, accountId);
    await this.deliveries.forget(tx, accountId);
  }
}
