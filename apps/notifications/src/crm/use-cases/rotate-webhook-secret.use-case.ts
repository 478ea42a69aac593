import { Inject, Injectable } from '@nestjs/common';
import { CrmMessages, type WebhookSettings } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, ServiceError, type SignedInMeta } from '@digicard/server';
import { ProfilesClient } from '../profiles.client.js';
import { newWebhookSecret } from '../signature.js';
import { toSettings } from '../webhook.mapping.js';
import { WebhookEndpointsRepository } from '../webhook-endpoints.repository.js';

/** A new signing secret (the old one may have leaked); every attempt from now on, retries included, uses it. */
@Injectable()
export class RotateWebhookSecret {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(ProfilesClient) private readonly profiles: ProfilesClient,
    @Inject(WebhookEndpointsRepository) private readonly endpoints: WebhookEndpointsRepository,
  ) {}

  async execute(meta: SignedInMeta): Promise<WebhookSettings> {
    await this.profiles.requireCrm(meta.userId, meta.requestId);
    const row = await this.endpoints.setSecret(this.db, meta.userId, newWebhookSecret(), new Date());
    if (!row) throw ServiceError.notFound(CrmMessages.noEndpoint);
    return toSettings(row);
  }
}
