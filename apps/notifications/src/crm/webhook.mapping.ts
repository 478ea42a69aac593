import type { WebhookAttempt, WebhookDelivery, WebhookDeliveryDetail, WebhookSettings } from '@digicard/contracts';
import type { AttemptRow, DeliveryRow } from './webhook-deliveries.repository.js';
import type { EndpointRow } from './webhook-endpoints.repository.js';

export const toSettings = (row: EndpointRow | null): WebhookSettings => ({
  endpoint: row
    ? { url: row.url, enabled: row.enabled, secret: row.secret, disabledReason: row.disabledReason, updatedAt: row.updatedAt.toISOString() }
    : null,
});

export const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  eventId: row.eventId,
  type: row.type === 'lead.test' ? 'lead.test' : 'lead.captured',
  url: row.url,
  status: row.status,
  attempts: row.attempts,
  lastStatusCode: row.lastStatusCode,
  lastError: row.lastError,
  summary: row.summary,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  nextAttemptAt: row.status === 'pending' && row.nextAttemptAt ? row.nextAttemptAt.toISOString() : null,
});

export const toAttempt = (row: AttemptRow): WebhookAttempt => ({
  attempt: row.attempt,
  at: row.at.toISOString(),
  statusCode: row.statusCode,
  error: row.error,
  durationMs: row.durationMs,
  responseExcerpt: row.responseExcerpt,
});

export const toDetail = (row: DeliveryRow, attempts: AttemptRow[]): WebhookDeliveryDetail => ({
  ...toDelivery(row),
  attemptLog: attempts.map(toAttempt),
});
