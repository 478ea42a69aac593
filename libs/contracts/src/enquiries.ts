import { z } from 'zod';
import { emailAddress, idempotencyKey, messageText, personName, phoneNumber } from './fields.js';

/** The footer form "Get things started" on every page: Name, Email, Number. */
export const CallBackEnquirySchema = z
  .object({ name: personName, email: emailAddress, number: phoneNumber, idempotencyKey })
  .meta({ id: 'CallBackEnquiry' });
export type CallBackEnquiry = z.infer<typeof CallBackEnquirySchema>;

/** The /contact page form "Let us contact you": name, email, message. */
export const MessageEnquirySchema = z
  .object({ name: personName, email: emailAddress, message: messageText, idempotencyKey })
  .meta({ id: 'MessageEnquiry' });
export type MessageEnquiry = z.infer<typeof MessageEnquirySchema>;

/** DigiPlatinum (teams, analytics) is priced on request: the request-a-quote form, for the sales team. */
export const QuoteEnquirySchema = z
  .object({
    name: personName,
    email: emailAddress,
    number: phoneNumber,
    company: z
      .string({ error: 'Please enter your company’s name.' })
      .trim()
      .min(1, 'Please enter your company’s name.')
      .max(120, 'Please keep the company name under 120 characters.'),
    teamSize: z
      .number({ error: 'How many people would use DigiCard? A number, please.' })
      .int('A whole number, please.')
      .min(2, 'DigiPlatinum is for teams of two or more.')
      .max(100_000, 'For more than 100 000 people, please write to us.'),
    message: z.string().trim().max(5000, 'Please keep the message under 5000 characters.').optional(),
    idempotencyKey,
  })
  .meta({ id: 'QuoteEnquiry' });
export type QuoteEnquiry = z.infer<typeof QuoteEnquirySchema>;

export const EnquiryKind = z.enum(['call-back', 'message', 'quote']);
export type EnquiryKind = z.infer<typeof EnquiryKind>;

/** NATS request body of `orders.enquiry.submit`: one of the forms, tagged. */
export const SubmitEnquiryRequestSchema = z.discriminatedUnion('kind', [
  CallBackEnquirySchema.extend({ kind: z.literal('call-back') }),
  MessageEnquirySchema.extend({ kind: z.literal('message') }),
  QuoteEnquirySchema.extend({ kind: z.literal('quote') }),
]);
export type SubmitEnquiryRequest = z.infer<typeof SubmitEnquiryRequestSchema>;

export const EnquiryAcceptedSchema = z.object({ id: z.uuid(), receivedAt: z.iso.datetime() }).meta({ id: 'EnquiryAccepted' });
export type EnquiryAccepted = z.infer<typeof EnquiryAcceptedSchema>;

/** Data of the `orders.enquiry.received` event. */
export const EnquiryReceivedSchema = z.object({
  enquiryId: z.uuid(),
  kind: EnquiryKind,
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  message: z.string().nullable(),
  /** Quote requests only; events recorded before quotes existed have neither. */
  company: z.string().nullable().default(null),
  teamSize: z.number().int().nullable().default(null),
  receivedAt: z.iso.datetime(),
});
export type EnquiryReceived = z.infer<typeof EnquiryReceivedSchema>;
