import type { z } from 'zod';
import { CallBackEnquirySchema, EnquiryAcceptedSchema, MessageEnquirySchema } from './enquiries.js';
import { ApiErrorSchema } from './errors.js';
import { HealthReportSchema } from './health.js';

export interface HttpRoute {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly tag: string;
  readonly body?: z.ZodType;
  readonly responses: Readonly<Record<number, { description: string; schema?: z.ZodType }>>;
}

const badRequest = { description: 'Invalid input; fieldErrors names each field', schema: ApiErrorSchema };
const unavailable = { description: 'A service did not answer in time; nothing was stored', schema: ApiErrorSchema };
const forbidden = { description: 'Cross-site request refused', schema: ApiErrorSchema };
const tooMany = { description: 'Too many requests', schema: ApiErrorSchema };

/** The gateway's HTTP API. The OpenAPI document is generated from this table and committed. */
export const HttpRoutes = {
  submitCallBackEnquiry: {
    method: 'post',
    path: '/api/enquiries/call-back',
    operationId: 'submitCallBackEnquiry',
    summary: 'The footer form "Get things started": asks the sales team to call back',
    tag: 'enquiries',
    body: CallBackEnquirySchema,
    responses: {
      202: { description: 'Stored; the sales inbox will be emailed', schema: EnquiryAcceptedSchema },
      400: badRequest,
      403: forbidden,
      429: tooMany,
      503: unavailable,
    },
  },
  submitMessageEnquiry: {
    method: 'post',
    path: '/api/enquiries/message',
    operationId: 'submitMessageEnquiry',
    summary: 'The contact page form "Let us contact you"',
    tag: 'enquiries',
    body: MessageEnquirySchema,
    responses: {
      202: { description: 'Stored; the sales inbox will be emailed', schema: EnquiryAcceptedSchema },
      400: badRequest,
      403: forbidden,
      429: tooMany,
      503: unavailable,
    },
  },
  health: {
    method: 'get',
    path: '/api/health',
    operationId: 'getHealth',
    summary: 'The gateway and every service it talks to',
    tag: 'operations',
    responses: {
      200: { description: 'All dependencies answer', schema: HealthReportSchema },
      503: { description: 'Some dependency does not answer', schema: HealthReportSchema },
    },
  },
} as const satisfies Record<string, HttpRoute>;
