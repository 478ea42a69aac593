import type { Events, WebhookBody, WebhookEventType } from '@digicard/contracts';
import type { z } from 'zod';

type Lead = z.output<(typeof Events.leadCaptured)['data']>;

/** The JSON a CRM receives for a lead; serialised once and stored, so every retry sends (and signs) the same bytes. */
export function webhookBody(
  id: string,
  type: WebhookEventType,
  lead: Pick<Lead, 'leadId' | 'kind' | 'firstName' | 'lastName' | 'email' | 'phone' | 'message' | 'createdAt'>,
  now: Date,
): string {
  const body: WebhookBody = {
    id,
    type,
    createdAt: now.toISOString(),
    data: {
      lead: {
        id: lead.leadId,
        kind: lead.kind,
        firstName: lead.firstName,
        lastName: lead.lastName,
        email: lead.email,
        phone: lead.phone,
        message: lead.message,
        createdAt: lead.createdAt,
      },
    },
  };
  return JSON.stringify(body);
}

export const leadSummary = (lead: { firstName: string; lastName: string }): string =>
  `${lead.firstName} ${lead.lastName}`.trim() || 'A lead';
