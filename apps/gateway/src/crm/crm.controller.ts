import { Controller, Inject, Param } from '@nestjs/common';
import {
  HttpRoutes,
  Rpc,
  type PageRequest,
  type RequestMeta,
  type SaveWebhook,
  type WebhookDeliveryDetail,
  type WebhookDeliveryList,
  type WebhookSettings,
} from '@digicard/contracts';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { ValidBody, ValidQuery } from '../http/route-params.js';
import { GatewayRpc } from '../rpc/rpc.client.js';

/**
 * The dashboard's CRM integration (DigiGold and up): the owner's webhook and its delivery log. The notifications
 * service owns them and checks the tier (403 with the upgrade message); every call is the signed-in owner's own.
 */
@Controller()
export class CrmController {
  constructor(@Inject(GatewayRpc) private readonly rpc: GatewayRpc) {}

  @Route(HttpRoutes.getWebhook)
  get(@Meta() meta: RequestMeta): Promise<WebhookSettings> {
    return this.rpc.call(Rpc.getWebhook, {}, meta);
  }

  @Route(HttpRoutes.saveWebhook)
  save(@ValidBody() body: SaveWebhook, @Meta() meta: RequestMeta): Promise<WebhookSettings> {
    return this.rpc.call(Rpc.saveWebhook, body, meta);
  }

  @Route(HttpRoutes.rotateWebhookSecret)
  rotate(@Meta() meta: RequestMeta): Promise<WebhookSettings> {
    return this.rpc.call(Rpc.rotateWebhookSecret, {}, meta);
  }

  @Route(HttpRoutes.sendTestWebhook)
  test(@Meta() meta: RequestMeta): Promise<{ deliveryId: string; message: string }> {
    return this.rpc.call(Rpc.sendTestWebhook, {}, meta);
  }

  @Route(HttpRoutes.listWebhookDeliveries)
  deliveries(@ValidQuery() page: PageRequest, @Meta() meta: RequestMeta): Promise<WebhookDeliveryList> {
    return this.rpc.call(Rpc.listWebhookDeliveries, page, meta);
  }

  @Route(HttpRoutes.getWebhookDelivery)
  delivery(@Param('deliveryId') deliveryId: string, @Meta() meta: RequestMeta): Promise<WebhookDeliveryDetail> {
    return this.rpc.call(Rpc.getWebhookDelivery, { deliveryId }, meta);
  }
}
