import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, type SaveWebhook as SaveWebhookBody, type WebhookSettings } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { CONFIG, DATABASE, ServiceError, type SignedInMeta } from '@digicard/server';
import { allowsLocalWebhooks, type Config } from '../../config.js';
import { checkWebhookTarget, WebhookAddressRefused } from '../address-policy.js';
import { ProfilesClient } from '../profiles.client.js';
import { newWebhookSecret } from '../signature.js';
import { toSettings } from '../webhook.mapping.js';
import { WebhookEndpointsRepository } from '../webhook-endpoints.repository.js';

/**
 * The owner saves their CRM's address (DigiGold and up): https, and a name whose every address is public (checked
 * again at each delivery). The first save makes the signing secret; later saves keep it (and turn a webhook that
 * answered 410 back on).
 */
@Injectable()
export class SaveWebhook {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(ProfilesClient) private readonly profiles: ProfilesClient,
    @Inject(WebhookEndpointsRepository) private readonly endpoints: WebhookEndpointsRepository,
  ) {}

  async execute(meta: SignedInMeta, { url, enabled }: SaveWebhookBody): Promise<WebhookSettings> {
    await this.profiles.requireCrm(meta.userId, meta.requestId);
    try {
      await checkWebhookTarget(url, allowsLocalWebhooks(this.config));
    } catch (error) {
      if (!(error instanceof WebhookAddressRefused)) throw error;
      throw new ServiceError({
        statusCode: 400,
        code: ErrorCode.ValidationFailed,
        message: 'Please correct the highlighted fields.',
        fieldErrors: { url: [error.message] },
      });
    }
    return toSettings(await this.endpoints.upsertEndpoint(this.db, meta.userId, url, enabled, newWebhookSecret(), new Date()));
  }
}
