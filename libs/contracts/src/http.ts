import type { z } from 'zod';
import {
  LoginRequestSchema,
  MessageResponseSchema,
  PasswordResetRequestSchema,
  PasswordResetSchema,
  RegisterRequestSchema,
  SessionResponseSchema,
  VerifyEmailSchema,
} from './accounts.js';
import { CatalogueItemSchema, CatalogueListSchema } from './catalogue.js';
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
const signedOut = { description: 'Not signed in', schema: ApiErrorSchema };
const csrf = { description: 'Cross-site request, or a missing or wrong x-csrf-token while signed in', schema: ApiErrorSchema };

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
  register: {
    method: 'post',
    path: '/api/accounts',
    operationId: 'register',
    summary: 'Creates an account and signs it in; a verification email follows',
    tag: 'accounts',
    body: RegisterRequestSchema,
    responses: {
      201: { description: 'Registered and signed in (sets the session cookie)', schema: SessionResponseSchema },
      400: { description: 'Invalid, reserved or taken username; email taken; weak or common password', schema: ApiErrorSchema },
      403: csrf,
      429: tooMany,
      503: unavailable,
    },
  },
  getSession: {
    method: 'get',
    path: '/api/session',
    operationId: 'getSession',
    summary: 'Who is signed in, and the CSRF token to send with changes',
    tag: 'accounts',
    responses: { 200: { description: 'The session, or nulls when signed out', schema: SessionResponseSchema } },
  },
  login: {
    method: 'post',
    path: '/api/session',
    operationId: 'login',
    summary: 'Signs in with email and password (a new session id every time)',
    tag: 'accounts',
    body: LoginRequestSchema,
    responses: {
      200: { description: 'Signed in (sets the session cookie)', schema: SessionResponseSchema },
      400: badRequest,
      401: { description: 'AUTH_USER_NOT_FOUND, AUTH_WRONG_PASSWORD or AUTH_FAILED with the product\'s message', schema: ApiErrorSchema },
      403: csrf,
      429: tooMany,
      503: unavailable,
    },
  },
  logout: {
    method: 'delete',
    path: '/api/session',
    operationId: 'logout',
    summary: 'Ends the session on the server and clears the cookie',
    tag: 'accounts',
    responses: { 204: { description: 'Signed out' }, 403: csrf },
  },
  verifyEmail: {
    method: 'post',
    path: '/api/email-verification',
    operationId: 'verifyEmail',
    summary: 'Uses the single-use link from the verification email',
    tag: 'accounts',
    body: VerifyEmailSchema,
    responses: {
      200: { description: 'Verified', schema: MessageResponseSchema },
      400: { description: 'LINK_INVALID: unknown, used or expired', schema: ApiErrorSchema },
      403: csrf,
      429: tooMany,
      503: unavailable,
    },
  },
  resendVerification: {
    method: 'post',
    path: '/api/email-verification/resend',
    operationId: 'resendVerification',
    summary: 'Sends a new verification email to the signed-in account',
    tag: 'accounts',
    responses: { 202: { description: 'On its way', schema: MessageResponseSchema }, 401: signedOut, 403: csrf, 429: tooMany, 503: unavailable },
  },
  requestPasswordReset: {
    method: 'post',
    path: '/api/password-reset/request',
    operationId: 'requestPasswordReset',
    summary: 'Emails a single-use reset link, valid 30 minutes, when the account exists',
    tag: 'accounts',
    body: PasswordResetRequestSchema,
    responses: { 202: { description: 'Accepted', schema: MessageResponseSchema }, 400: badRequest, 403: csrf, 429: tooMany, 503: unavailable },
  },
  resetPassword: {
    method: 'post',
    path: '/api/password-reset',
    operationId: 'resetPassword',
    summary: 'Chooses a new password with the link; ends every other session and signs this one in',
    tag: 'accounts',
    body: PasswordResetSchema,
    responses: {
      200: { description: 'Changed and signed in', schema: SessionResponseSchema },
      400: { description: 'Weak or common password, or LINK_INVALID', schema: ApiErrorSchema },
      403: csrf,
      429: tooMany,
      503: unavailable,
    },
  },
  listCatalogue: {
    method: 'get',
    path: '/api/catalogue',
    operationId: 'listCatalogue',
    summary: 'Every NFC card and special in the shop, prices in cents',
    tag: 'shop',
    responses: { 200: { description: 'The catalogue', schema: CatalogueListSchema }, 503: unavailable },
  },
  getCatalogueItem: {
    method: 'get',
    path: '/api/catalogue/:id',
    operationId: 'getCatalogueItem',
    summary: 'One card or special (pvc-card, bamboo-card, ssteel-card, pvc-special, bamboo-special, ssteel-special)',
    tag: 'shop',
    responses: {
      200: { description: 'The item', schema: CatalogueItemSchema },
      404: { description: 'Card not found', schema: ApiErrorSchema },
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
