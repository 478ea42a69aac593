import { z } from 'zod';
import { pageOf } from './paging.js';
import { LeadFieldsSchema } from './profiles.js';

/**
 * CRM hand-off (DigiGold and up): an owner's outgoing webhook. Owned by the notifications service, which consumes
 * `profiles.lead.captured` and posts each new lead, signed, to the owner's endpoint.
 */

/** The headers of every delivery (docs/subsystems.md "CRM hand-off: outgoing webhooks"). */
export const WebhookHeaders = {
  /** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>` */
  signature: 'X-DigiCard-Signature',
  /** The delivery's id: the same for every retry of one lead, so a receiver can drop repeats. */
  eventId: 'X-DigiCard-Event-Id',
  /** `lead.captured` or `lead.test`. */
  eventType: 'X-DigiCard-Event',
} as const;

export const WebhookEventTypes = ['lead.captured', 'lead.test'] as const;
export type WebhookEventType = (typeof WebhookEventTypes)[number];

export const CrmMessages = {
  upgrade: 'Upgrade to DigiGold to unlock CRM integration!',
  httpsOnly: 'Please enter a web address starting with https://',
  privateAddress: 'That address is on a private or local network. Please use your CRM’s public https address.',
  unresolvable: 'We could not find that address. Please check it.',
  noEndpoint: 'Please save your CRM’s webhook address first.',
  noDelivery: 'Delivery not found.',
} as const;

/** The endpoint's address as typed: an absolute http(s) URL (https, and a public address, is checked by the service). */
export const WebhookUrlSchema = z
  .string({ error: 'Please enter your CRM’s webhook address.' })
  .trim()
  .min(1, 'Please enter your CRM’s webhook address.')
  .max(2000, 'That address is too long.')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
    } catch {
      return false;
    }
  }, CrmMessages.httpsOnly);

export const SaveWebhookSchema = z.object({ url: WebhookUrlSchema, enabled: z.boolean() }).meta({ id: 'SaveWebhook' });
export type SaveWebhook = z.infer<typeof SaveWebhookSchema>;

export const WebhookSettingsSchema = z
  .object({
    endpoint: z
      .object({
        url: z.string(),
        enabled: z.boolean(),
        /** Shown to its owner only, to verify signatures; rotate it when it may have leaked. */
        secret: z.string(),
        /** Why it was turned off by us (the endpoint answered 410 Gone), or null. */
        disabledReason: z.string().nullable(),
        updatedAt: z.iso.datetime(),
      })
      .nullable(),
  })
  .meta({ id: 'WebhookSettings' });
export type WebhookSettings = z.infer<typeof WebhookSettingsSchema>;

export const WebhookDeliveryStatuses = ['pending', 'succeeded', 'failed'] as const;

export const WebhookAttemptSchema = z.object({
  attempt: z.number().int().min(1),
  at: z.iso.datetime(),
  /** The HTTP status the endpoint answered, or null when there was no answer (see `error`). */
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int().min(0),
  /** The first 200 characters of the answer, no more. */
  responseExcerpt: z.string().nullable(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;

export const WebhookDeliverySchema = z
  .object({
    id: z.uuid(),
    eventId: z.string(),
    type: z.enum(WebhookEventTypes),
    url: z.string(),
    status: z.enum(WebhookDeliveryStatuses),
    attempts: z.number().int().min(0),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    /** The lead's name, to tell deliveries apart in the log. */
    summary: z.string(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    /** The next try, while pending. */
    nextAttemptAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

/** A page of the owner's deliveries, newest first (`?cursor=&limit=`): none is left out however many there are. */
export const WebhookDeliveryListSchema = pageOf('deliveries', WebhookDeliverySchema).meta({ id: 'WebhookDeliveryList' });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;

export const WebhookDeliveryDetailSchema = WebhookDeliverySchema.extend({ attemptLog: z.array(WebhookAttemptSchema) }).meta({
  id: 'WebhookDeliveryDetail',
});
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetailSchema>;

export const WebhookTestSentSchema = z.object({ deliveryId: z.uuid(), message: z.string() }).meta({ id: 'WebhookTestSent' });

/** The JSON body of a delivery (what the CRM receives). */
export const WebhookBodySchema = z.object({
  id: z.string(),
  type: z.enum(WebhookEventTypes),
  createdAt: z.iso.datetime(),
  data: z.object({ lead: LeadFieldsSchema.extend({ id: z.string() }) }),
});
export type WebhookBody = z.infer<typeof WebhookBodySchema>;

/** A `crm-webhook` job: post one stored delivery (its body and URL are in notifications' database). */
export const CrmWebhookJobSchema = z.object({ deliveryId: z.uuid() });
export type CrmWebhookJob = z.infer<typeof CrmWebhookJobSchema>;

/** BullMQ custom ids may not contain ':'; one delivery per event, so a redelivered event never posts twice. */
export const crmWebhookJobId = (eventId: string): string => `crm-webhook-${eventId}`;

/**
 * The waits between attempts (ms): 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, so ten attempts span about
 * 23.7 hours; after the last the delivery is failed.
 */
export const CrmWebhookRetryDelaysMs = [
  30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 28_800_000,
] as const;
