import { Inject, Injectable } from '@nestjs/common';
import { CrmMessages, type Rpc, type WebhookDeliveryDetail, type WebhookDeliveryList, type WebhookSettings } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, ServiceError, pageStart, toPage, type RpcBody, type SignedInMeta } from '@digicard/server';
import { ProfilesClient } from './profiles.client.js';
import { toDelivery, toDetail, toSettings } from './webhook.mapping.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

/** The owner's webhook and delivery log (DigiGold and up); only ever the caller's own. */
@Injectable()
export class WebhookQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(ProfilesClient) private readonly profiles: ProfilesClient,
    @Inject(WebhookEndpointsRepository) private readonly endpoints: WebhookEndpointsRepository,
    @Inject(WebhookDeliveriesRepository) private readonly deliveryLog: WebhookDeliveriesRepository,
  ) {}

  async settings(meta: SignedInMeta): Promise<WebhookSettings> {
    await this.profiles.requireCrm(meta.userId, meta.requestId);
    return toSettings(await this.endpoints.endpointOf(this.db, meta.userId));
  }

  /** The owner's delivery log, newest first, a page at a time (only the caller's own rows: the cursor is a position). */
  async deliveries(meta: SignedInMeta, page: RpcBody<typeof Rpc.listWebhookDeliveries>): Promise<WebhookDeliveryList> {
    await this.profiles.requireCrm(meta.userId, meta.requestId);
    const rows = await this.deliveryLog.deliveriesPage(this.db, meta.userId, pageStart(page), page.limit);
    const { items, nextCursor } = await toPage(
      rows.map((r) => ({ ...r, id: r.delivery.id })),
      page.limit,
      (taken) => taken.map((r) => toDelivery(r.delivery)),
    );
    return { deliveries: items, nextCursor };
  }

  /** Another owner's delivery is not found (404), the same as one that does not exist. */
  async delivery(meta: SignedInMeta, deliveryId: string): Promise<WebhookDeliveryDetail> {
    await this.profiles.requireCrm(meta.userId, meta.requestId);
    const row = await this.deliveryLog.deliveryOf(this.db, meta.userId, deliveryId);
    if (!row) throw ServiceError.notFound(CrmMessages.noDelivery);
    return toDetail(row, await this.deliveryLog.attemptsOf(this.db, row.id));
  }
}
