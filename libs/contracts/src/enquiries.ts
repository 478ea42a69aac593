import { z } from 'zod';
import { emailAddress, messageText, personName, phoneNumber } from './fields.js';

/** The footer form "Get things started" on every page: Name, Email, Number. */
export const CallBackEnquirySchema = z
  .object({ name: personName, email: emailAddress, number: phoneNumber })
  .meta({ id: 'CallBackEnquiry' });
export type CallBackEnquiry = z.infer<typeof CallBackEnquirySchema>;

/** The /contact page form "Let us contact you": name, email, message. */
export const MessageEnquirySchema = z
  .object({ name: personName, email: emailAddress, message: messageText })
  .meta({ id: 'MessageEnquiry' });
export type MessageEnquiry = z.infer<typeof MessageEnquirySchema>;

export const EnquiryKind = z.enum(['call-back', 'message']);
export type EnquiryKind = z.infer<typeof EnquiryKind>;

/** NATS request body of `orders.enquiry.submit`: one of the two forms, tagged. */
export const SubmitEnquiryRequestSchema = z.discriminatedUnion('kind', [
  CallBackEnquirySchema.extend({ kind: z.literal('call-back') }),
  MessageEnquirySchema.extend({ kind: z.literal('message') }),
]);
export type SubmitEnquiryRequest = z.infer<typeof SubmitEnquiryRequestSchema>;

export const EnquiryAcceptedSchema = z
  .object({ id: z.uuid(), receivedAt: z.iso.datetime() })
  .meta({ id: 'EnquiryAccepted' });
export type EnquiryAccepted = z.infer<typeof EnquiryAcceptedSchema>;

/** Data of the `orders.enquiry.received` event. */
export const EnquiryReceivedSchema = z.object({
  enquiryId: z.uuid(),
  kind: EnquiryKind,
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  message: z.string().nullable(),
  receivedAt: z.iso.datetime(),
});
export type EnquiryReceived = z.infer<typeof EnquiryReceivedSchema>;
