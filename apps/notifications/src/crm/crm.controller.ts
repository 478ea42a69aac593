import { Controller, Inject } from '@nestjs/common';
import { Rpc } from '@digicard/contracts';
import { Handles, type RpcBody as Body, type SignedInMeta } from '@digicard/server';
import { RotateWebhookSecret } from './use-cases/rotate-webhook-secret.use-case.js';
import { SaveWebhook } from './use-cases/save-webhook.use-case.js';
import { SendTestWebhook } from './use-cases/send-test-webhook.use-case.js';
import { WebhookQueries } from './webhook-queries.js';

/** The CRM webhook subjects (signed-in owners; the tier is checked in each use case), each one call. */
@Controller()
export class CrmController {
  constructor(
    @Inject(WebhookQueries) private readonly queries: WebhookQueries,
    @Inject(SaveWebhook) private readonly saveWebhook: SaveWebhook,
    @Inject(RotateWebhookSecret) private readonly rotateSecret: RotateWebhookSecret,
    @Inject(SendTestWebhook) private readonly sendTest: SendTestWebhook,
  ) {}

  @Handles(Rpc.getWebhook)
  get(_: object, meta: SignedInMeta) {
    return this.queries.settings(meta);
  }

  @Handles(Rpc.saveWebhook)
  save(body: Body<typeof Rpc.saveWebhook>, meta: SignedInMeta) {
    return this.saveWebhook.execute(meta, body);
  }

  @Handles(Rpc.rotateWebhookSecret)
  rotate(_: object, meta: SignedInMeta) {
    return this.rotateSecret.execute(meta);
  }

  @Handles(Rpc.sendTestWebhook)
  test(_: object, meta: SignedInMeta) {
    return this.sendTest.execute(meta);
  }

  @Handles(Rpc.listWebhookDeliveries)
  deliveries(page: Body<typeof Rpc.listWebhookDeliveries>, meta: SignedInMeta) {
    return this.queries.deliveries(meta, page);
  }

  @Handles(Rpc.getWebhookDelivery)
  delivery({ deliveryId }: Body<typeof Rpc.getWebhookDelivery>, meta: SignedInMeta) {
    return this.queries.delivery(meta, deliveryId);
  }
}
