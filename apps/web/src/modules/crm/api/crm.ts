import { HttpRoutes, type SaveWebhook } from '@digicard/contracts';
import { getJson, getPage, postJson, putJson } from '../../api/http';

/** GET /api/crm/webhook: the owner's webhook (null when none is saved) with its signing secret. */
export function fetchWebhook() {
  return getJson(HttpRoutes.getWebhook);
}

/** PUT /api/crm/webhook: 400 with `fieldErrors.url` for http, a private address or a name that does not resolve. */
export function saveWebhook(body: SaveWebhook) {
  return putJson(HttpRoutes.saveWebhook, body);
}

export function rotateWebhookSecret() {
  return postJson(HttpRoutes.rotateWebhookSecret);
}

export function sendTestWebhook() {
  return postJson(HttpRoutes.sendTestWebhook);
}

/** GET /api/crm/deliveries: a page of the deliveries, newest first (`cursor`: the page after the one it ended). */
export function fetchWebhookDeliveries(cursor: string | null = null) {
  return getPage(HttpRoutes.listWebhookDeliveries, cursor);
}
