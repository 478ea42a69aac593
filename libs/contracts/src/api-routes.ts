import type { z } from 'zod';
import {
  DeleteAccountSchema,
  LoginRequestSchema,
  MessageResponseSchema,
  PasswordResetRequestSchema,
  PasswordResetSchema,
  RegisterRequestSchema,
  SessionResponseSchema,
  VerifyEmailSchema,
} from './accounts.js';
import { CatalogueItemSchema, CatalogueListSchema } from './catalogue.js';
import {
  LeadAcceptedSchema,
  LeadListSchema,
  LeadSubmissionSchema,
  OwnProfileSchema,
  ProfileSettingsSchema,
  SaveProfileSchema,
  StoredImageSchema,
} from './profiles.js';
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
  /** A raw upload instead of JSON (the media type it accepts). */
  readonly upload?: string;
  /** The media type of a non-JSON success answer. */
  readonly produces?: string;
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
  deleteAccount: {
    method: 'delete',
    path: '/api/accounts/me',
    operationId: 'deleteAccount',
    summary: 'Deletes the signed-in account and everything held about it (POPIA), after the password is confirmed',
    tag: 'accounts',
    body: DeleteAccountSchema,
    responses: {
      200: { description: 'Deleted; every session ended', schema: MessageResponseSchema },
      400: badRequest,
      401: { description: 'Not signed in, or AUTH_WRONG_PASSWORD', schema: ApiErrorSchema },
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
  getOwnProfile: {
    method: 'get',
    path: '/api/profile',
    operationId: 'getOwnProfile',
    summary: 'The signed-in owner’s profile for the editor',
    tag: 'profiles',
    responses: { 200: { description: 'The profile', schema: OwnProfileSchema }, 401: signedOut, 503: unavailable },
  },
  saveProfile: {
    method: 'put',
    path: '/api/profile',
    operationId: 'saveProfile',
    summary: 'Saves the whole profile document (the editor’s Save)',
    tag: 'profiles',
    body: SaveProfileSchema,
    responses: {
      200: { description: 'Saved', schema: OwnProfileSchema },
      400: badRequest,
      401: signedOut,
      403: { description: 'A feature the membership does not include (the upgrade message), or CSRF', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  saveProfileSettings: {
    method: 'put',
    path: '/api/profile/settings',
    operationId: 'saveProfileSettings',
    summary: 'Public or private, and the membership (DigiShare until payments open)',
    tag: 'profiles',
    body: ProfileSettingsSchema,
    responses: { 200: { description: 'Saved', schema: OwnProfileSchema }, 400: badRequest, 401: signedOut, 403: csrf, 503: unavailable },
  },
  uploadImage: {
    method: 'post',
    path: '/api/profile/images/:purpose',
    operationId: 'uploadImage',
    summary: 'Uploads an image (profileImage, profileBackground, businessLogo, gallery, product): at most 2 MB, checked by content, re-encoded without metadata',
    tag: 'profiles',
    upload: 'image/*',
    responses: {
      201: { description: 'Stored; profile image, cover and logo are saved in the profile at once', schema: StoredImageSchema },
      400: { description: 'Too large, or not an image', schema: ApiErrorSchema },
      401: signedOut,
      403: csrf,
      503: unavailable,
    },
  },
  listLeads: {
    method: 'get',
    path: '/api/profile/leads',
    operationId: 'listLeads',
    summary: 'The owner’s leads, newest first',
    tag: 'profiles',
    responses: { 200: { description: 'Leads', schema: LeadListSchema }, 401: signedOut, 503: unavailable },
  },
  exportLeads: {
    method: 'get',
    path: '/api/profile/leads.csv',
    operationId: 'exportLeads',
    summary: 'The owner’s leads as a CSV file',
    tag: 'profiles',
    produces: 'text/csv',
    responses: { 200: { description: 'CSV, one lead a row' }, 401: signedOut, 503: unavailable },
  },
  exportData: {
    method: 'get',
    path: '/api/profile/export',
    operationId: 'exportData',
    summary: 'Everything we hold about the signed-in owner, as JSON (POPIA)',
    tag: 'profiles',
    responses: { 200: { description: 'A JSON download' }, 401: signedOut, 503: unavailable },
  },
  submitLead: {
    method: 'post',
    path: '/api/profiles/:username/leads',
    operationId: 'submitLead',
    summary: 'A visitor’s lead form, Exchange Contact or Get your own Profile',
    tag: 'profiles',
    body: LeadSubmissionSchema,
    responses: {
      202: { description: 'Stored; the owner will be emailed', schema: LeadAcceptedSchema },
      400: badRequest,
      403: { description: 'The lead form needs DigiGold, or a cross-site request', schema: ApiErrorSchema },
      404: { description: 'No such public profile', schema: ApiErrorSchema },
      429: tooMany,
      503: unavailable,
    },
  },
  getVcard: {
    method: 'get',
    path: '/api/profiles/:username/vcard',
    operationId: 'getVcard',
    summary: 'Save to Contact: a vCard 3.0 file named after the owner',
    tag: 'profiles',
    produces: 'text/vcard',
    responses: { 200: { description: 'The vCard' }, 404: { description: 'No such public profile', schema: ApiErrorSchema } },
  },
  getQrPng: {
    method: 'get',
    path: '/api/profiles/:username/qr.png',
    operationId: 'getQrPng',
    summary: 'The QR code of the public profile URL, 300x300 PNG, downloaded as QR_Code.png',
    tag: 'profiles',
    produces: 'image/png',
    responses: { 200: { description: 'PNG' }, 404: { description: 'No such profile', schema: ApiErrorSchema } },
  },
  getQrSvg: {
    method: 'get',
    path: '/api/profiles/:username/qr.svg',
    operationId: 'getQrSvg',
    summary: 'The same QR code as SVG, for print',
    tag: 'profiles',
    produces: 'image/svg+xml',
    responses: { 200: { description: 'SVG' }, 404: { description: 'No such profile', schema: ApiErrorSchema } },
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
