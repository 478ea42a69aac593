import { z } from 'zod';
import {
  AccountNamesSchema,
  DeleteAccountSchema,
  EmailChangeConfirmSchema,
  EmailChangeRequestSchema,
  EmailLinkCheckSchema,
  EmailLinkOwnerSchema,
  LoginRequestSchema,
  MessageResponseSchema,
  PasswordResetRequestSchema,
  PasswordResetSchema,
  RegisterRequestSchema,
  RegisteredResponseSchema,
  SessionResponseSchema,
  SessionUserSchema,
  VerifyEmailSchema,
  type Role,
} from './accounts.js';
import { CatalogueItemSchema, CatalogueListSchema } from './catalogue.js';
import {
  BillingSchema,
  PaymentHistorySchema,
  CheckoutRequestSchema,
  CheckoutResponseSchema,
  OrderListSchema,
  OrderSchema,
  CardSchema,
  CardSerialSchema,
  MoveOrderSchema,
  OrderDetailListSchema,
  OrderDetailSchema,
  PrintOrderSchema,
  PrintQueueSchema,
  RecordCardSchema,
  AssignCardSchema,
  RequestChangesSchema,
  SetCardDisabledSchema,
  PaymentRedirectSchema,
  PlanListSchema,
  SpecialRegistrationRequestSchema,
  StartMembershipSchema,
} from './commerce.js';
import {
  ImagePurposeSchema,
  LeadAcceptedSchema,
  LeadListSchema,
  LeadSubmissionSchema,
  OwnProfileSchema,
  ProfileSettingsSchema,
  SaveProfileSchema,
  StoredImageSchema,
} from './profiles.js';
import { CallBackEnquirySchema, EnquiryAcceptedSchema, MessageEnquirySchema, QuoteEnquirySchema } from './enquiries.js';
import { ApiErrorSchema } from './errors.js';
import {
  SetBusinessSchema,
  SetPartnerSchema,
  SetRoleSchema,
  RevokeRoleSchema,
  SetVanityPathsSchema,
  StaffAccountDetailSchema,
  StaffAuditPageSchema,
  StaffRefundsSchema,
  StaffSearchResultSchema,
  StaffSearchSchema,
} from './staff.js';
import { AnalyticsReportSchema, ClickSchema, TeamAnalyticsQuerySchema, TeamAnalyticsReportSchema } from './analytics.js';
import {
  SaveWebhookSchema,
  WebhookDeliveryDetailSchema,
  WebhookDeliveryListSchema,
  WebhookSettingsSchema,
  WebhookTestSentSchema,
} from './crm.js';
import { PublicHealthSchema } from './health.js';
import { PageQuerySchema } from './paging.js';
import {
  ApplePassLogSchema,
  ApplePassRegistrationSchema,
  ApplePassSerialsSchema,
  DeviceLibraryIdentifierSchema,
  PassSerialSchema,
  PassTypeIdentifierSchema,
  PKPASS_MEDIA_TYPE,
  WalletStatusSchema,
  GoogleWalletLinkSchema,
  RepPassesSentSchema,
} from './wallet.js';
import {
  SCIM_MEDIA_TYPE,
  ScimErrorSchema,
  ScimListResponseSchema,
  ScimAuditSchema,
  ScimSettingsSchema,
  ScimTokenIssuedSchema,
  ScimUserResourceSchema,
  TeamSignInOffSchema,
  TeamSignInStateSchema,
} from './scim.js';
import { SaveSsoSettingsSchema, SsoCallbackQuerySchema, SsoRedirectSchema, SsoSettingsSchema, SsoStartSchema } from './sso.js';
import { AddRepRequestSchema, ImportRepsRequestSchema, ImportRepsResultSchema, RepFieldsSchema, RepSchema, TeamSchema } from './teams.js';

/**
 * Who may call a gateway route: anyone (`public`), any signed-in account (`account`: 401 otherwise), a signed-in
 * account with one of the roles (401 signed out, 403 without the role), or a device holding a Wallet pass (`pass`:
 * no session, the pass's own token in `Authorization: ApplePass <token>`; 401 without one, and the service that
 * owns the pass answers 401 when it is not that pass's token), or a company's identity provider (`scim`: no session,
 * the team's SCIM token in `Authorization: Bearer <token>`; 401 without one, and the teams service answers 401 when
 * no team has it).
 */
export type RouteAccess = 'public' | 'account' | 'pass' | 'scim' | readonly Role[];

/** The gateway's configurable limits, by the name of their environment variable (`<requests>/<seconds>`). */
export const RateLimitNames = [
  'ENQUIRY_RATE_LIMIT',
  'RATE_LIMIT_LOGIN_IP',
  'RATE_LIMIT_LOGIN_ACCOUNT',
  'RATE_LIMIT_REGISTER_IP',
  'RATE_LIMIT_RESET_IP',
  'RATE_LIMIT_RESET_ACCOUNT',
  'RATE_LIMIT_RESEND_ACCOUNT',
  'RATE_LIMIT_VERIFY_IP',
  'RATE_LIMIT_UPLOAD_ACCOUNT',
  'RATE_LIMIT_PROFILE_SAVE_ACCOUNT',
  'RATE_LIMIT_CLICK_IP',
  'RATE_LIMIT_CRM_ACCOUNT',
  'RATE_LIMIT_LEAD_PROFILE',
  'RATE_LIMIT_LEAD_EMAIL',
  'RATE_LIMIT_ITN_IP',
  'RATE_LIMIT_WALLET_DOWNLOAD_ACCOUNT',
  'RATE_LIMIT_WALLET_IP',
  'RATE_LIMIT_WALLET_OFFER_ACCOUNT',
  'RATE_LIMIT_SCIM_TOKEN',
  'RATE_LIMIT_SCIM_IP',
] as const;
export type RateLimitName = (typeof RateLimitNames)[number];

/**
 * One fixed-window counter a route counts against, in the order listed:
 * - `bucket`: the counter's name; routes naming the same bucket share their counts;
 * - `per`: what is counted: the client address (`ip`), the signed-in account (`account`), the body's `email`
 *   (lower-cased and hashed, so the key never holds the address), or the profile the path names (`profile`: its
 *   `:username`, lower-cased), or the SCIM bearer token (`scimToken`: a hash of it, never the token);
 * - `limit`: which configured limit applies;
 * - `whenUncounted`: what happens while Redis cannot count: `allow` lets the request through (a warning is logged;
 *   forms whose abuse costs little), `refuse` answers 503 with Retry-After (where counting protects a secret).
 */
export interface RateLimitRule {
  readonly bucket: string;
  readonly per: 'ip' | 'account' | 'email' | 'profile' | 'scimToken';
  readonly limit: RateLimitName;
  readonly whenUncounted: 'allow' | 'refuse';
  /**
   * What is counted: every request (`every`, the default), or only failed sign-ins (`failures`: a success clears the
   * count, and beyond the limit's burst each attempt waits a growing, capped delay after the last failure, answered
   * 429 with Retry-After meanwhile; the count is forgotten after the limit's seconds of quiet).
   */
  readonly counts?: 'every' | 'failures';
}

/** How a route signs someone in; each is a Passport strategy of the gateway (`local`: email and password). */
export type SignInMethod = 'local';

/**
 * What every route the gateway serves declares, and what its `@Route` decorator applies, in this order: who may
 * call it, the body and the query string (400 with field errors), the path parameters (404), the limits (429), then
 * the sign-in.
 */
export interface GatewayRoute {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** As Nest writes it: `:name` parameters, `{*name}` for the rest of the path. */
  readonly path: string;
  readonly access: RouteAccess;
  /** The JSON body, validated with this schema; the handler receives what it parses to. */
  readonly body?: z.ZodType;
  /** The query string, validated with this schema (400 with field errors); the handler receives what it parses to. */
  readonly query?: z.ZodType;
  /** The path parameters: a value the schema refuses names nothing, answered 404 with `notFound`. */
  readonly params?: { readonly schema: z.ZodType; readonly notFound: string };
  readonly limits?: readonly RateLimitRule[];
  /** The route signs in with this method, after its limits (so that guessing is limited too). */
  readonly signIn?: SignInMethod;
}

/** A route of the API under `/api`, described in the OpenAPI document. */
export interface HttpRoute extends GatewayRoute {
  readonly operationId: string;
  readonly summary: string;
  readonly tag: string;
  /** A raw upload instead of JSON (the media type it accepts). */
  readonly upload?: string;
  /** The media type of a non-JSON success answer. */
  readonly produces?: string;
  /**
   * The answers; the first 2xx is the success status. 400 (with a body), 401 (unless public), 403 (with roles) and
   * 429 (with limits) are added to the document from the declarations above unless listed here with a more precise
   * description.
   */
  readonly responses: Readonly<Record<number, { description: string; schema?: z.ZodType }>>;
}

/** The status of a route's success answer: the first 2xx of its responses, else 200. */
export function successStatus(route: GatewayRoute): number {
  const responses = 'responses' in route ? (route as HttpRoute).responses : {};
  return (
    Object.keys(responses)
      .map(Number)
      .find((status) => status >= 200 && status < 300) ?? 200
  );
}

const unavailable = { description: 'A service did not answer in time; nothing was stored', schema: ApiErrorSchema };
const forbidden = { description: 'Cross-site request refused', schema: ApiErrorSchema };
const csrf = { description: 'Cross-site request, or a missing or wrong x-csrf-token while signed in', schema: ApiErrorSchema };
const linkForOtherAccount = {
  description:
    'LINK_FOR_OTHER_ACCOUNT: signed in to another account than the link’s; nothing used or changed, the session kept (the page asks, and signs out first when the person agrees)',
  schema: ApiErrorSchema,
};

/** The answers every route with such a declaration may give (see HttpRoute.responses). */
export const DerivedResponses = {
  badRequest: { description: 'Invalid input; fieldErrors names each field', schema: ApiErrorSchema },
  signedOut: { description: 'Not signed in', schema: ApiErrorSchema },
  roleMissing: { description: 'The signed-in account lacks the role this needs', schema: ApiErrorSchema },
  tooMany: { description: 'Too many requests', schema: ApiErrorSchema },
} as const;

/** The longest PayFast notification the gateway reads (PayFast's are a few hundred bytes to about 2 KB). */
export const ITN_MAX_BYTES = 16 * 1024;

/** Order ids and card serials in API paths (printing, issue 10). */
const orderParams = { schema: z.object({ orderId: z.uuid() }), notFound: 'Order not found.' };
const cardParams = { schema: z.object({ serial: CardSerialSchema }), notFound: 'Card not found.' };

/** Usernames in API paths: anything else cannot be a profile. */
const usernameParams = { schema: z.object({ username: z.string().regex(/^[a-z0-9-]{1,64}$/) }), notFound: 'Profile not found.' };

/**
 * Apple's pass web service (PassKit Web Service): the paths Wallet calls under the pass's `webServiceURL`
 * (`{PUBLIC_URL}/api/wallet/apple`), limited per client address; the pass routes need the pass's own token.
 */
const passParams = {
  schema: z.object({ passTypeIdentifier: PassTypeIdentifierSchema, serialNumber: PassSerialSchema }),
  notFound: 'No such pass.',
};
const deviceParams = {
  schema: z.object({
    deviceLibraryIdentifier: DeviceLibraryIdentifierSchema,
    passTypeIdentifier: PassTypeIdentifierSchema,
    serialNumber: PassSerialSchema.optional(),
  }),
  notFound: 'No such pass.',
};
const walletIpLimit = [{ bucket: 'wallet-ip', per: 'ip', limit: 'RATE_LIMIT_WALLET_IP', whenUncounted: 'allow' }] as const;
const passUnauthorized = { description: "No `Authorization: ApplePass <token>`, or not this pass's token", schema: ApiErrorSchema };
const walletOff = { description: 'No such pass, or Apple Wallet is not configured', schema: ApiErrorSchema };

/** The staff console's account ids in paths; the answers only staff get. */
const staffAccountParams = { schema: z.object({ accountId: z.uuid() }), notFound: 'No such account.' };
const staffOnly = { description: 'Signed in without the staff role, or a cross-site request', schema: ApiErrorSchema };
const noAccount = { description: 'No such account', schema: ApiErrorSchema };

/** SCIM (issue 27): every answer is SCIM's JSON (`application/scim+json`), errors in its own format. */
const scimLimits = [
  { bucket: 'scim-ip', per: 'ip', limit: 'RATE_LIMIT_SCIM_IP', whenUncounted: 'allow' },
  { bucket: 'scim-token', per: 'scimToken', limit: 'RATE_LIMIT_SCIM_TOKEN', whenUncounted: 'allow' },
] as const;
const scimUserParams = { schema: z.object({ scimUserId: z.uuid() }), notFound: 'No such user in this team.' };
const scimFailures = {
  401: { description: 'No bearer token, or one no team has (a revoked or another server’s token)', schema: ScimErrorSchema },
  403: { description: 'The team’s leader is not on DigiPlatinum (teams are part of it)', schema: ScimErrorSchema },
  429: {
    description: 'Too many requests with this token or from this address (Retry-After says when to try again)',
    schema: ScimErrorSchema,
  },
  503: { description: 'A service did not answer; nothing was changed', schema: ScimErrorSchema },
} as const;
const scimUser = (description: string) => ({ description, schema: ScimUserResourceSchema });
const scimNoUser = { description: 'No such user in this team (another team’s user is not found either)', schema: ScimErrorSchema };
const scimBadUser = {
  description: 'invalidSyntax (not JSON, not a User resource) or invalidValue (userName not an email, names missing)',
  schema: ScimErrorSchema,
};
const scimDiscovery = { description: 'The discovery document (RFC 7643 5–7)' };

/** CRM hand-off: below DigiGold every route is 403 with the upgrade message (the notifications service decides). */
const crmUpgrade = {
  description: 'Needs DigiGold (the upgrade message), or a cross-site request / missing x-csrf-token',
  schema: ApiErrorSchema,
};
const crmLimit = [{ bucket: 'crm-account', per: 'account', limit: 'RATE_LIMIT_CRM_ACCOUNT', whenUncounted: 'allow' }] as const;

/**
 * The gateway's HTTP API. The OpenAPI document is generated from this table and committed; the gateway's handlers
 * take their method, path, status, body, access, limits and sign-in from it (`@Route`).
 */
export const HttpRoutes = {
  submitCallBackEnquiry: {
    method: 'post',
    path: '/api/enquiries/call-back',
    operationId: 'submitCallBackEnquiry',
    summary: 'The footer form "Get things started": asks the sales team to call back',
    tag: 'enquiries',
    access: 'public',
    body: CallBackEnquirySchema,
    limits: [{ bucket: 'enquiry', per: 'ip', limit: 'ENQUIRY_RATE_LIMIT', whenUncounted: 'allow' }],
    responses: {
      202: { description: 'Stored; the sales inbox will be emailed', schema: EnquiryAcceptedSchema },
      403: forbidden,
      503: unavailable,
    },
  },
  submitMessageEnquiry: {
    method: 'post',
    path: '/api/enquiries/message',
    operationId: 'submitMessageEnquiry',
    summary: 'The contact page form "Let us contact you"',
    tag: 'enquiries',
    access: 'public',
    body: MessageEnquirySchema,
    limits: [{ bucket: 'enquiry', per: 'ip', limit: 'ENQUIRY_RATE_LIMIT', whenUncounted: 'allow' }],
    responses: {
      202: { description: 'Stored; the sales inbox will be emailed', schema: EnquiryAcceptedSchema },
      403: forbidden,
      503: unavailable,
    },
  },
  submitQuoteEnquiry: {
    method: 'post',
    path: '/api/enquiries/quote',
    operationId: 'submitQuoteEnquiry',
    summary: 'DigiPlatinum’s "Request a quote": a team’s details for the sales team',
    tag: 'enquiries',
    access: 'public',
    body: QuoteEnquirySchema,
    limits: [{ bucket: 'enquiry', per: 'ip', limit: 'ENQUIRY_RATE_LIMIT', whenUncounted: 'allow' }],
    responses: {
      202: { description: 'Stored; the sales inbox will be emailed', schema: EnquiryAcceptedSchema },
      403: forbidden,
      503: unavailable,
    },
  },
  register: {
    method: 'post',
    path: '/api/accounts',
    operationId: 'register',
    summary:
      'Registers: a new email gets its account and the verification email (whose link signs it in); an email that has an account gets no account, and its owner an email about the attempt. The answer is the same for both, and starts no session',
    tag: 'accounts',
    access: 'public',
    body: RegisterRequestSchema,
    limits: [{ bucket: 'register-ip', per: 'ip', limit: 'RATE_LIMIT_REGISTER_IP', whenUncounted: 'refuse' }],
    responses: {
      201: {
        description:
          'Registered, or the email has an account (its owner is emailed): the same answer, no session; the browser shows the verify-email page',
        schema: RegisteredResponseSchema,
      },
      400: { description: 'Invalid, reserved or taken username; weak or common password (never "email taken")', schema: ApiErrorSchema },
      403: csrf,
      503: unavailable,
    },
  },
  deleteAccount: {
    method: 'delete',
    path: '/api/accounts/me',
    operationId: 'deleteAccount',
    summary: 'Deletes the signed-in account and everything held about it (POPIA), after the password is confirmed',
    tag: 'accounts',
    access: 'account',
    body: DeleteAccountSchema,
    // The password that confirms a deletion is guessed against the same count as sign-in's.
    limits: [{ bucket: 'login-account', per: 'account', limit: 'RATE_LIMIT_LOGIN_ACCOUNT', whenUncounted: 'refuse' }],
    responses: {
      200: { description: 'Deleted; every session ended', schema: MessageResponseSchema },
      401: { description: 'Not signed in, or AUTH_WRONG_PASSWORD', schema: ApiErrorSchema },
      403: csrf,
      503: unavailable,
    },
  },
  getSession: {
    method: 'get',
    path: '/api/session',
    operationId: 'getSession',
    summary: 'Who is signed in, and the CSRF token to send with changes',
    tag: 'accounts',
    access: 'public',
    responses: { 200: { description: 'The session, or nulls when signed out', schema: SessionResponseSchema } },
  },
  login: {
    method: 'post',
    path: '/api/session',
    operationId: 'login',
    summary: 'Signs in with email and password (a new session id every time)',
    tag: 'accounts',
    access: 'public',
    body: LoginRequestSchema,
    limits: [
      { bucket: 'login-ip', per: 'ip', limit: 'RATE_LIMIT_LOGIN_IP', whenUncounted: 'refuse' },
      { bucket: 'login-account', per: 'email', limit: 'RATE_LIMIT_LOGIN_ACCOUNT', whenUncounted: 'refuse', counts: 'failures' },
    ],
    signIn: 'local',
    responses: {
      200: { description: 'Signed in (sets the session cookie)', schema: SessionResponseSchema },
      401: {
        description:
          'AUTH_INVALID_CREDENTIALS "Incorrect email or password." (the same for an unknown email and a wrong password), or AUTH_FAILED',
        schema: ApiErrorSchema,
      },
      403: {
        description: `${csrf.description}; or SSO_REQUIRED: a rep whose team requires its company account (the right password, refused)`,
        schema: ApiErrorSchema,
      },
      503: unavailable,
    },
  },
  logout: {
    method: 'delete',
    path: '/api/session',
    operationId: 'logout',
    summary: 'Ends the session on the server and clears the cookie',
    tag: 'accounts',
    access: 'public',
    responses: { 204: { description: 'Signed out' }, 403: csrf },
  },
  renameAccount: {
    method: 'put',
    path: '/api/accounts/me/name',
    operationId: 'renameAccount',
    summary: 'Changes the signed-in owner’s first and last name (the public page shows them at once)',
    tag: 'accounts',
    access: 'account',
    body: AccountNamesSchema,
    responses: { 200: { description: 'The account with its new names', schema: SessionUserSchema }, 403: csrf, 503: unavailable },
  },
  requestEmailChange: {
    method: 'post',
    path: '/api/accounts/me/email',
    operationId: 'requestEmailChange',
    summary: 'Asks for a new email, confirmed by the password: a link goes to the new address, the change waits for it',
    tag: 'accounts',
    access: 'account',
    body: EmailChangeRequestSchema,
    // The password is guessed against the same count as sign-in's.
    limits: [{ bucket: 'login-account', per: 'account', limit: 'RATE_LIMIT_LOGIN_ACCOUNT', whenUncounted: 'refuse' }],
    responses: {
      202: { description: 'The same answer whether or not the address has an account', schema: MessageResponseSchema },
      401: { description: 'Not signed in, or AUTH_WRONG_PASSWORD', schema: ApiErrorSchema },
      403: csrf,
      503: unavailable,
    },
  },
  confirmEmailChange: {
    method: 'post',
    path: '/api/email-change',
    operationId: 'confirmEmailChange',
    summary: 'Uses the single-use link sent to the new address: the account’s email becomes that address',
    tag: 'accounts',
    access: 'public',
    body: EmailChangeConfirmSchema,
    limits: [{ bucket: 'verify-ip', per: 'ip', limit: 'RATE_LIMIT_VERIFY_IP', whenUncounted: 'refuse' }],
    responses: {
      200: { description: 'Changed; the old address gets a notice', schema: MessageResponseSchema },
      400: { description: 'LINK_INVALID: unknown, used, expired or replaced by a newer request', schema: ApiErrorSchema },
      403: csrf,
      503: unavailable,
    },
  },
  verifyEmail: {
    method: 'post',
    path: '/api/email-verification',
    operationId: 'verifyEmail',
    summary: 'Uses the single-use link from the verification email',
    tag: 'accounts',
    access: 'public',
    body: VerifyEmailSchema,
    limits: [{ bucket: 'verify-ip', per: 'ip', limit: 'RATE_LIMIT_VERIFY_IP', whenUncounted: 'refuse' }],
    responses: {
      200: {
        description:
          'Verified; signed in as the verified account when signed out (sets the session cookie), the session kept when it is that account already',
        schema: MessageResponseSchema,
      },
      400: { description: 'LINK_INVALID: unknown, used or expired', schema: ApiErrorSchema },
      403: csrf,
      409: linkForOtherAccount,
      503: unavailable,
    },
  },
  checkEmailLink: {
    method: 'post',
    path: '/api/email-links/check',
    operationId: 'checkEmailLink',
    summary:
      'Whose account a verification or reset link is for, asked by a signed-in browser before it uses the link (the page asks before switching accounts); the link is not used',
    tag: 'accounts',
    access: 'account',
    body: EmailLinkCheckSchema,
    // Links are guessed against the same count as using them.
    limits: [{ bucket: 'verify-ip', per: 'ip', limit: 'RATE_LIMIT_VERIFY_IP', whenUncounted: 'refuse' }],
    responses: {
      200: { description: 'For the signed-in account, or for another one (its address masked)', schema: EmailLinkOwnerSchema },
      400: { description: 'LINK_INVALID: unknown, used or expired', schema: ApiErrorSchema },
      403: csrf,
      503: unavailable,
    },
  },
  resendVerification: {
    method: 'post',
    path: '/api/email-verification/resend',
    operationId: 'resendVerification',
    summary: 'Sends a new verification email to the signed-in account',
    tag: 'accounts',
    access: 'account',
    limits: [{ bucket: 'resend-account', per: 'account', limit: 'RATE_LIMIT_RESEND_ACCOUNT', whenUncounted: 'allow' }],
    responses: { 202: { description: 'On its way', schema: MessageResponseSchema }, 403: csrf, 503: unavailable },
  },
  requestPasswordReset: {
    method: 'post',
    path: '/api/password-reset/request',
    operationId: 'requestPasswordReset',
    summary: 'Emails a single-use reset link, valid 30 minutes, when the account exists',
    tag: 'accounts',
    access: 'public',
    body: PasswordResetRequestSchema,
    limits: [
      { bucket: 'reset-ip', per: 'ip', limit: 'RATE_LIMIT_RESET_IP', whenUncounted: 'refuse' },
      { bucket: 'reset-account', per: 'email', limit: 'RATE_LIMIT_RESET_ACCOUNT', whenUncounted: 'refuse' },
    ],
    responses: { 202: { description: 'Accepted', schema: MessageResponseSchema }, 403: csrf, 503: unavailable },
  },
  resetPassword: {
    method: 'post',
    path: '/api/password-reset',
    operationId: 'resetPassword',
    summary: 'Chooses a new password with the link; ends every other session and signs this one in',
    tag: 'accounts',
    access: 'public',
    body: PasswordResetSchema,
    // Reset links are guessed against the same count as verification links.
    limits: [{ bucket: 'verify-ip', per: 'ip', limit: 'RATE_LIMIT_VERIFY_IP', whenUncounted: 'refuse' }],
    responses: {
      200: { description: 'Changed and signed in', schema: SessionResponseSchema },
      400: { description: 'Weak or common password, or LINK_INVALID', schema: ApiErrorSchema },
      403: csrf,
      409: linkForOtherAccount,
      503: unavailable,
    },
  },
  listCatalogue: {
    method: 'get',
    path: '/api/catalogue',
    operationId: 'listCatalogue',
    summary: 'Every NFC card and special in the shop, prices in cents',
    tag: 'shop',
    access: 'public',
    responses: { 200: { description: 'The catalogue', schema: CatalogueListSchema }, 503: unavailable },
  },
  getCatalogueItem: {
    method: 'get',
    path: '/api/catalogue/:id',
    operationId: 'getCatalogueItem',
    summary: 'One card or special (pvc-card, bamboo-card, ssteel-card, pvc-special, bamboo-special, ssteel-special)',
    tag: 'shop',
    access: 'public',
    // Ids are lowercase words and hyphens; anything else cannot be a card.
    params: { schema: z.object({ id: z.string().regex(/^[a-z0-9-]{1,64}$/) }), notFound: 'Card not found' },
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
    access: 'account',
    responses: { 200: { description: 'The profile', schema: OwnProfileSchema }, 503: unavailable },
  },
  saveProfile: {
    method: 'put',
    path: '/api/profile',
    operationId: 'saveProfile',
    summary: 'Saves the whole profile document (the editor’s Save)',
    tag: 'profiles',
    access: 'account',
    // Each save may re-render the print proof of every order awaiting approval (one job per order, merged).
    limits: [{ bucket: 'profile-save-account', per: 'account', limit: 'RATE_LIMIT_PROFILE_SAVE_ACCOUNT', whenUncounted: 'allow' }],
    body: SaveProfileSchema,
    responses: {
      200: { description: 'Saved', schema: OwnProfileSchema },
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
    access: 'account',
    body: ProfileSettingsSchema,
    responses: { 200: { description: 'Saved', schema: OwnProfileSchema }, 403: csrf, 503: unavailable },
  },
  uploadImage: {
    method: 'post',
    path: '/api/profile/images/:purpose',
    operationId: 'uploadImage',
    summary:
      'Uploads an image (profileImage, profileBackground, businessLogo, gallery, product): at most 2 MB, checked by content, re-encoded without metadata',
    tag: 'profiles',
    access: 'account',
    params: { schema: z.object({ purpose: ImagePurposeSchema }), notFound: 'No such kind of image.' },
    // Access and this limit are checked before the body is read (the gateway's upload gate): a signed-out or
    // over-limit upload is answered at once, its bytes never buffered.
    limits: [{ bucket: 'upload-account', per: 'account', limit: 'RATE_LIMIT_UPLOAD_ACCOUNT', whenUncounted: 'allow' }],
    upload: 'image/*',
    responses: {
      201: { description: 'Stored; profile image, cover and logo are saved in the profile at once', schema: StoredImageSchema },
      400: { description: 'Too large, or not an image', schema: ApiErrorSchema },
      403: csrf,
      413: { description: 'QUOTA_EXCEEDED: the account’s images would use more than its storage quota', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  listLeads: {
    method: 'get',
    path: '/api/profile/leads',
    operationId: 'listLeads',
    summary: 'A page of the owner’s leads, newest first; ?cursor= (the last page’s nextCursor) and ?limit= (1 to 100, 50 by default)',
    tag: 'profiles',
    access: 'account',
    query: PageQuerySchema,
    responses: { 200: { description: 'Leads, and the next page’s cursor (null on the last)', schema: LeadListSchema }, 503: unavailable },
  },
  exportLeads: {
    method: 'get',
    path: '/api/profile/leads.csv',
    operationId: 'exportLeads',
    summary: 'The owner’s leads as a CSV file, every one of them (streamed page by page)',
    tag: 'profiles',
    access: 'account',
    produces: 'text/csv',
    responses: { 200: { description: 'CSV, one lead a row' }, 503: unavailable },
  },
  exportData: {
    method: 'get',
    path: '/api/profile/export',
    operationId: 'exportData',
    summary: 'Everything we hold about the signed-in owner, as JSON (POPIA), every list in full (streamed page by page)',
    tag: 'profiles',
    access: 'account',
    responses: { 200: { description: 'A JSON download' }, 503: unavailable },
  },
  getAnalytics: {
    method: 'get',
    path: '/api/analytics',
    operationId: 'getAnalytics',
    summary: 'The owner’s analytics: last-30-day totals; with ?from=&to= (YYYY-MM-DD) any range in full (DigiPlatinum)',
    tag: 'analytics',
    access: 'account',
    responses: {
      200: { description: 'The report', schema: AnalyticsReportSchema },
      400: { description: 'A bad date or range; fieldErrors names it', schema: ApiErrorSchema },
      403: { description: 'A range, or the full view, needs DigiPlatinum', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  exportAnalytics: {
    method: 'get',
    path: '/api/analytics.csv',
    operationId: 'exportAnalytics',
    summary: 'The owner’s analytics, one day a row, as CSV (DigiPlatinum); ?from=&to= as for getAnalytics',
    tag: 'analytics',
    access: 'account',
    produces: 'text/csv',
    responses: {
      200: { description: 'CSV, one day a row' },
      400: { description: 'A bad date or range', schema: ApiErrorSchema },
      403: { description: 'Needs DigiPlatinum', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  recordClick: {
    method: 'post',
    path: '/api/profiles/:username/clicks',
    operationId: 'recordClick',
    summary: 'The public page’s click beacon (navigator.sendBeacon): counted in the gateway, sent to profiles in batches',
    tag: 'analytics',
    access: 'public',
    body: ClickSchema,
    params: usernameParams,
    // A beacon costs little, so counting never blocks it: while Redis is away, clicks are let through (and counted).
    limits: [{ bucket: 'click-ip', per: 'ip', limit: 'RATE_LIMIT_CLICK_IP', whenUncounted: 'allow' }],
    responses: { 204: { description: 'Counted (or ignored: a robot, or the owner)' }, 403: csrf },
  },
  submitLead: {
    method: 'post',
    path: '/api/profiles/:username/leads',
    operationId: 'submitLead',
    summary: 'A visitor’s lead form, Exchange Contact or Get your own Profile',
    tag: 'profiles',
    access: 'public',
    body: LeadSubmissionSchema,
    params: usernameParams,
    // Exchange Contact and Get your own Profile email the address typed in: limited per client address, per profile
    // (one profile is not a cannon) and per address emailed (nobody is flooded, whoever sends).
    limits: [
      { bucket: 'lead-ip', per: 'ip', limit: 'ENQUIRY_RATE_LIMIT', whenUncounted: 'allow' },
      { bucket: 'lead-profile', per: 'profile', limit: 'RATE_LIMIT_LEAD_PROFILE', whenUncounted: 'allow' },
      { bucket: 'lead-email', per: 'email', limit: 'RATE_LIMIT_LEAD_EMAIL', whenUncounted: 'allow' },
    ],
    responses: {
      202: { description: 'Stored; the owner will be emailed', schema: LeadAcceptedSchema },
      403: { description: 'The lead form needs DigiGold, or a cross-site request', schema: ApiErrorSchema },
      404: { description: 'No such public profile', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  getVcard: {
    method: 'get',
    path: '/api/profiles/:username/vcard',
    operationId: 'getVcard',
    summary: 'Save to Contact: a vCard 3.0 file named after the owner',
    tag: 'profiles',
    access: 'public',
    params: usernameParams,
    produces: 'text/vcard',
    responses: { 200: { description: 'The vCard' }, 404: { description: 'No such public profile', schema: ApiErrorSchema } },
  },
  getQrPng: {
    method: 'get',
    path: '/api/profiles/:username/qr.png',
    operationId: 'getQrPng',
    summary: 'The QR code of the public profile URL, 300x300 PNG, downloaded as QR_Code.png',
    tag: 'profiles',
    access: 'public',
    params: usernameParams,
    produces: 'image/png',
    responses: { 200: { description: 'PNG' }, 404: { description: 'No such profile', schema: ApiErrorSchema } },
  },
  getQrSvg: {
    method: 'get',
    path: '/api/profiles/:username/qr.svg',
    operationId: 'getQrSvg',
    summary: 'The same QR code as SVG, for print',
    tag: 'profiles',
    access: 'public',
    params: usernameParams,
    produces: 'image/svg+xml',
    responses: { 200: { description: 'SVG' }, 404: { description: 'No such profile', schema: ApiErrorSchema } },
  },
  // ----------------------------------------------------------------------------------- wallet passes (issue 26)
  getWalletStatus: {
    method: 'get',
    path: '/api/wallet',
    operationId: 'getWalletStatus',
    summary: 'Which wallets the dashboard offers the owner’s card to (a wallet not configured is not offered)',
    tag: 'wallet',
    access: 'account',
    responses: { 200: { description: 'The wallets', schema: WalletStatusSchema }, 503: unavailable },
  },
  downloadApplePass: {
    method: 'get',
    path: '/api/wallet/apple/pass.pkpass',
    operationId: 'downloadApplePass',
    summary: 'Add to Apple Wallet: the signed pass of the owner’s card (the same pass, kept current, every time)',
    tag: 'wallet',
    access: 'account',
    limits: [{ bucket: 'wallet-download-account', per: 'account', limit: 'RATE_LIMIT_WALLET_DOWNLOAD_ACCOUNT', whenUncounted: 'allow' }],
    produces: PKPASS_MEDIA_TYPE,
    responses: {
      200: { description: 'The pass (application/vnd.apple.pkpass)' },
      404: { description: 'Apple Wallet is not configured, or the account has no profile', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  getGoogleWalletLink: {
    method: 'get',
    path: '/api/wallet/google',
    operationId: 'getGoogleWalletLink',
    summary: 'Save to Google Wallet: the link (a JWT signed with the service account’s key) to the owner’s one pass object',
    tag: 'wallet',
    access: 'account',
    limits: [{ bucket: 'wallet-download-account', per: 'account', limit: 'RATE_LIMIT_WALLET_DOWNLOAD_ACCOUNT', whenUncounted: 'allow' }],
    responses: {
      200: { description: 'The save link', schema: GoogleWalletLinkSchema },
      404: { description: 'Google Wallet is not configured, or the account has no profile', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  registerApplePassDevice: {
    method: 'post',
    path: '/api/wallet/apple/v1/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier/:serialNumber',
    operationId: 'registerApplePassDevice',
    summary: 'Apple Wallet: a device asks for pushes when the pass changes (201 new, 200 already registered)',
    tag: 'wallet',
    access: 'pass',
    body: ApplePassRegistrationSchema,
    params: deviceParams,
    limits: walletIpLimit,
    responses: {
      201: { description: 'Registered' },
      200: { description: 'Already registered' },
      401: passUnauthorized,
      404: walletOff,
      503: unavailable,
    },
  },
  unregisterApplePassDevice: {
    method: 'delete',
    path: '/api/wallet/apple/v1/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier/:serialNumber',
    operationId: 'unregisterApplePassDevice',
    summary: 'Apple Wallet: the pass left the device; no more pushes to it',
    tag: 'wallet',
    access: 'pass',
    params: deviceParams,
    limits: walletIpLimit,
    responses: { 200: { description: 'Unregistered' }, 401: passUnauthorized, 404: walletOff, 503: unavailable },
  },
  listApplePassSerials: {
    method: 'get',
    path: '/api/wallet/apple/v1/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier',
    operationId: 'listApplePassSerials',
    summary: 'Apple Wallet: the serials of the device’s passes that changed since ?passesUpdatedSince= (204: none)',
    tag: 'wallet',
    access: 'public',
    params: deviceParams,
    limits: walletIpLimit,
    responses: {
      200: { description: 'The changed passes, and the tag to ask with next time', schema: ApplePassSerialsSchema },
      204: { description: 'None changed (or the device has no passes here)' },
      404: walletOff,
      503: unavailable,
    },
  },
  getLatestApplePass: {
    method: 'get',
    path: '/api/wallet/apple/v1/passes/:passTypeIdentifier/:serialNumber',
    operationId: 'getLatestApplePass',
    summary: 'Apple Wallet: the latest version of the pass (304 when not modified since If-Modified-Since)',
    tag: 'wallet',
    access: 'pass',
    params: passParams,
    limits: walletIpLimit,
    produces: PKPASS_MEDIA_TYPE,
    responses: {
      200: { description: 'The pass, with Last-Modified' },
      304: { description: 'Not modified since If-Modified-Since' },
      401: passUnauthorized,
      404: walletOff,
      503: unavailable,
    },
  },
  logApplePassErrors: {
    method: 'post',
    path: '/api/wallet/apple/v1/log',
    operationId: 'logApplePassErrors',
    summary: 'Apple Wallet: error messages from devices, kept in the gateway’s log (shortened)',
    tag: 'wallet',
    access: 'public',
    body: ApplePassLogSchema,
    limits: walletIpLimit,
    responses: { 200: { description: 'Logged' } },
  },
  listPlans: {
    method: 'get',
    path: '/api/plans',
    operationId: 'listPlans',
    summary: 'The membership tiers and their monthly prices, in cents (DigiPlatinum: on request)',
    tag: 'billing',
    access: 'public',
    responses: { 200: { description: 'The plans', schema: PlanListSchema }, 503: unavailable },
  },
  checkout: {
    method: 'post',
    path: '/api/orders',
    operationId: 'checkout',
    summary: 'Places an order for the basket (priced from the catalogue) and answers where to pay it at PayFast',
    tag: 'orders',
    access: 'account',
    body: CheckoutRequestSchema,
    responses: {
      201: { description: 'Placed, awaiting payment; the browser goes to redirectUrl', schema: CheckoutResponseSchema },
      400: { description: 'An item the shop does not have, or a quantity out of range', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  registerSpecial: {
    method: 'post',
    path: '/api/registration',
    operationId: 'registerSpecial',
    summary:
      'The special offer. With an account: registers as POST /api/accounts does (the same answer for a new email and a taken one, no session, nothing ordered); the specials stay in the basket until the verification link signs the account in. Signed in (account null): places the order for the specials, or reuses the open one with the same lines (a retry after a 503), and answers where to pay it at PayFast (a DigiGold subscription whose first recurring charge is a year out)',
    tag: 'orders',
    access: 'public',
    body: SpecialRegistrationRequestSchema,
    // Counted as registration (the route creates accounts); a signed-in buyer counts against the same window.
    limits: [{ bucket: 'register-ip', per: 'ip', limit: 'RATE_LIMIT_REGISTER_IP', whenUncounted: 'refuse' }],
    responses: {
      201: {
        description:
          'With an account: registered (or the email has an account), no session, the verify-email page. Signed in: the order placed (or reused), awaiting payment; the browser goes to redirectUrl',
        schema: z.union([CheckoutResponseSchema, RegisteredResponseSchema]),
      },
      400: {
        description: 'Invalid, reserved or taken username; weak or common password; an item that is not a special (never "email taken")',
        schema: ApiErrorSchema,
      },
      401: { description: 'Not signed in and no account given', schema: ApiErrorSchema },
      403: csrf,
      409: { description: 'Signed in already with account given, or a membership is already active', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  listOrders: {
    method: 'get',
    path: '/api/orders',
    operationId: 'listOrders',
    summary: 'A page of the signed-in owner’s orders, newest first; ?cursor=&limit= as for listLeads',
    tag: 'orders',
    access: 'account',
    query: PageQuerySchema,
    responses: { 200: { description: 'Orders, and the next page’s cursor', schema: OrderListSchema }, 503: unavailable },
  },
  getOrder: {
    method: 'get',
    path: '/api/orders/:orderId',
    operationId: 'getOrder',
    summary: 'One of the signed-in owner’s orders',
    tag: 'orders',
    access: 'account',
    params: { schema: z.object({ orderId: z.uuid() }), notFound: 'Order not found.' },
    responses: {
      200: { description: 'The order', schema: OrderSchema },
      404: { description: 'Not one of yours', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  payOrder: {
    method: 'post',
    path: '/api/orders/:orderId/payment',
    operationId: 'payOrder',
    summary: 'Where to pay an order that still awaits payment (after a cancelled attempt, say)',
    tag: 'orders',
    access: 'account',
    params: { schema: z.object({ orderId: z.uuid() }), notFound: 'Order not found.' },
    responses: {
      200: { description: 'The signed PayFast request', schema: PaymentRedirectSchema },
      404: { description: 'Not one of yours', schema: ApiErrorSchema },
      409: { description: 'Already paid or cancelled', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  getBilling: {
    method: 'get',
    path: '/api/billing',
    operationId: 'getBilling',
    summary: 'The owner’s tier and subscription (next billing date); the payments are listBillingPayments',
    tag: 'billing',
    access: 'account',
    responses: { 200: { description: 'Billing', schema: BillingSchema }, 503: unavailable },
  },
  listBillingPayments: {
    method: 'get',
    path: '/api/billing/payments',
    operationId: 'listBillingPayments',
    summary: 'The owner’s payments (memberships and orders), newest first, a page at a time; ?cursor=&limit= as for listLeads',
    tag: 'billing',
    access: 'account',
    query: PageQuerySchema,
    responses: {
      200: { description: 'A page of the payments, newest first, and the next page’s cursor', schema: PaymentHistorySchema },
      503: unavailable,
    },
  },
  startMembership: {
    method: 'post',
    path: '/api/billing/membership',
    operationId: 'startMembership',
    summary: 'Starts a monthly DigiSilver or DigiGold subscription: answers where to pay the first month at PayFast',
    tag: 'billing',
    access: ['user', 'teamLeader'],
    body: StartMembershipSchema,
    responses: {
      201: { description: 'The signed PayFast subscription request', schema: PaymentRedirectSchema },
      409: { description: 'A subscription is already active', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  changeMembership: {
    method: 'put',
    path: '/api/billing/membership',
    operationId: 'changeMembership',
    summary: 'Changes an active subscription between DigiSilver and DigiGold at PayFast, from the next billing date on',
    tag: 'billing',
    access: ['user', 'teamLeader'],
    body: StartMembershipSchema,
    responses: {
      200: { description: 'The change is asked for: the subscription shows the next tier', schema: BillingSchema },
      409: { description: 'Nothing to change, or the subscription is not active', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  cancelMembership: {
    method: 'delete',
    path: '/api/billing/membership',
    operationId: 'cancelMembership',
    summary: 'Cancels the subscription at PayFast; the tier stays until the end of the paid period',
    tag: 'billing',
    access: 'account',
    responses: {
      200: { description: 'Cancelled', schema: BillingSchema },
      404: { description: 'No subscription to cancel', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  payfastNotify: {
    method: 'post',
    path: '/api/payfast/notify',
    operationId: 'payfastNotify',
    summary: 'PayFast’s Instant Transaction Notification (notify_url): answered 200 at once, verified and applied after',
    tag: 'billing',
    access: 'public',
    // Checked before the body is read (the gateway's ITN gate): the source address against PayFast's ranges, this
    // limit, then the declared length; nothing refused there reaches the payments service.
    limits: [{ bucket: 'itn-ip', per: 'ip', limit: 'RATE_LIMIT_ITN_IP', whenUncounted: 'allow' }],
    upload: 'application/x-www-form-urlencoded',
    responses: {
      200: { description: 'Received (whatever the verdict: every ITN is kept with it)' },
      400: { description: 'Not form-encoded text', schema: ApiErrorSchema },
      403: { description: 'Not from one of PayFast’s addresses (PAYFAST_SOURCE_RANGES): nothing is stored', schema: ApiErrorSchema },
      413: { description: `Longer than ${ITN_MAX_BYTES} bytes: nothing is stored`, schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  // ----------------------------------------------------------------- printing: the owner's orders and cards (issue 10)
  listOrderDetails: {
    method: 'get',
    path: '/api/order-details',
    operationId: 'listOrderDetails',
    summary:
      'A page of the owner’s orders with their print proof, cards, status history and tracking, newest first; ?cursor=&limit= as for listLeads',
    tag: 'orders',
    access: 'account',
    query: PageQuerySchema,
    responses: { 200: { description: 'Orders, and the next page’s cursor', schema: OrderDetailListSchema }, 503: unavailable },
  },
  cancelOrder: {
    method: 'post',
    path: '/api/orders/:orderId/cancellation',
    operationId: 'cancelOrder',
    summary: 'Cancels one of the owner’s orders that still awaits payment (nothing was paid, so nothing is refunded)',
    tag: 'orders',
    access: 'account',
    params: orderParams,
    responses: {
      200: { description: 'Cancelled', schema: OrderDetailSchema },
      404: { description: 'Not one of yours', schema: ApiErrorSchema },
      409: { description: 'Paid or cancelled already (ORDER_MOVE_NOT_ALLOWED)', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  approveProof: {
    method: 'post',
    path: '/api/orders/:orderId/approval',
    operationId: 'approveProof',
    summary: 'Approves the print proof of one of the owner’s orders: the cards are printed as it shows them',
    tag: 'orders',
    access: 'account',
    params: orderParams,
    responses: {
      200: { description: 'Approved', schema: OrderDetailSchema },
      404: { description: 'Not one of yours', schema: ApiErrorSchema },
      409: { description: 'No proof ready to approve (ORDER_MOVE_NOT_ALLOWED)', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  requestProofChanges: {
    method: 'post',
    path: '/api/orders/:orderId/changes',
    operationId: 'requestProofChanges',
    summary: 'Asks for changes to the print proof, with a note saying what',
    tag: 'orders',
    access: 'account',
    body: RequestChangesSchema,
    params: orderParams,
    responses: {
      200: { description: 'Changes requested', schema: OrderDetailSchema },
      404: { description: 'Not one of yours', schema: ApiErrorSchema },
      409: { description: 'No proof ready to answer (ORDER_MOVE_NOT_ALLOWED)', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  getOwnProofPdf: {
    method: 'get',
    path: '/api/orders/:orderId/proof.pdf',
    operationId: 'getOwnProofPdf',
    summary: 'The print proof of one of the owner’s orders, as the print-ready PDF',
    tag: 'orders',
    access: 'account',
    params: orderParams,
    produces: 'application/pdf',
    responses: {
      200: { description: 'PDF' },
      404: { description: 'Not one of yours, or no proof yet', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  getOwnProofPng: {
    method: 'get',
    path: '/api/orders/:orderId/proof.png',
    operationId: 'getOwnProofPng',
    summary: 'The print proof’s preview: the first card, front above back',
    tag: 'orders',
    access: 'account',
    params: orderParams,
    produces: 'image/png',
    responses: {
      200: { description: 'PNG' },
      404: { description: 'Not one of yours, or no proof yet', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  setCardDisabled: {
    method: 'put',
    path: '/api/cards/:serial',
    operationId: 'setCardDisabled',
    summary: 'Disables a lost card (its /c/{serial} then says so) or enables it again',
    tag: 'orders',
    access: 'account',
    body: SetCardDisabledSchema,
    params: cardParams,
    responses: {
      200: { description: 'The card', schema: CardSchema },
      404: { description: 'Not one of your cards', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  assignCard: {
    method: 'put',
    path: '/api/cards/:serial/assignee',
    operationId: 'assignCard',
    summary: 'A team leader points one of the team’s printed cards at one of their reps (or back at themselves), without reprinting',
    tag: 'orders',
    access: ['teamLeader'],
    body: AssignCardSchema,
    params: cardParams,
    responses: {
      200: { description: 'The card, now pointing at the rep', schema: CardSchema },
      400: { description: 'The rep is not in your team; fieldErrors names accountId', schema: ApiErrorSchema },
      403: { description: 'Not a team leader, or a cross-site request', schema: ApiErrorSchema },
      404: { description: 'Not one of your team’s cards', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  // ------------------------------------------------------------------------- the print console (role print only)
  printQueue: {
    method: 'get',
    path: '/api/print/orders',
    operationId: 'printQueue',
    summary:
      'The print team’s queue, a page at a time: paid orders with their proof, cards and history, newest first; ?cursor=&limit= as for listLeads',
    tag: 'print',
    access: ['print'],
    query: PageQuerySchema,
    responses: { 200: { description: 'A page of the queue, and the next page’s cursor', schema: PrintQueueSchema }, 503: unavailable },
  },
  printOrder: {
    method: 'get',
    path: '/api/print/orders/:orderId',
    operationId: 'printOrder',
    summary: 'One paid order, as the print console shows it',
    tag: 'print',
    access: ['print'],
    params: orderParams,
    responses: {
      200: { description: 'The order', schema: PrintOrderSchema },
      404: { description: 'No such paid order', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  printProofPdf: {
    method: 'get',
    path: '/api/print/orders/:orderId/proof.pdf',
    operationId: 'printProofPdf',
    summary: 'The order’s print-ready proof PDF',
    tag: 'print',
    access: ['print'],
    params: orderParams,
    produces: 'application/pdf',
    responses: {
      200: { description: 'PDF' },
      404: { description: 'No such order, or no proof yet', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  printProofPng: {
    method: 'get',
    path: '/api/print/orders/:orderId/proof.png',
    operationId: 'printProofPng',
    summary: 'The order’s proof preview',
    tag: 'print',
    access: ['print'],
    params: orderParams,
    produces: 'image/png',
    responses: {
      200: { description: 'PNG' },
      404: { description: 'No such order, or no proof yet', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  moveOrder: {
    method: 'post',
    path: '/api/print/orders/:orderId/moves',
    operationId: 'moveOrder',
    summary: 'Moves an order on (printing, nfc-encoded, shipped with courier and tracking, delivered; cancelled, refunded)',
    tag: 'print',
    access: ['print'],
    body: MoveOrderSchema,
    params: orderParams,
    responses: {
      200: { description: 'Moved; the owner is emailed', schema: PrintOrderSchema },
      404: { description: 'No such order', schema: ApiErrorSchema },
      409: { description: 'Not a move this order can make now (ORDER_MOVE_NOT_ALLOWED)', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  recordCard: {
    method: 'put',
    path: '/api/print/orders/:orderId/cards/:serial',
    operationId: 'recordCard',
    summary: 'Records the UID of the NFC chip encoded for one of the order’s cards (while printing)',
    tag: 'print',
    access: ['print'],
    body: RecordCardSchema,
    params: { schema: z.object({ orderId: z.uuid(), serial: CardSerialSchema }), notFound: 'Card not found.' },
    responses: {
      200: { description: 'Recorded', schema: PrintOrderSchema },
      404: { description: 'No such order or card', schema: ApiErrorSchema },
      409: { description: 'Not printing, or another card has that UID', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  rerenderProof: {
    method: 'post',
    path: '/api/print/orders/:orderId/proof',
    operationId: 'rerenderProof',
    summary: 'Renders the order’s proof again (after a failure, or after the owner asked for changes)',
    tag: 'print',
    access: ['print'],
    params: orderParams,
    responses: {
      202: { description: 'Queued: the proof shows rendering', schema: PrintOrderSchema },
      404: { description: 'No such order', schema: ApiErrorSchema },
      409: { description: 'Already approved', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  packingSlip: {
    method: 'get',
    path: '/api/print/orders/:orderId/packing-slip.pdf',
    operationId: 'packingSlip',
    summary: 'The packing slip (A5 PDF): reference, customer, lines, card serials and NFC UIDs, courier and tracking',
    tag: 'print',
    access: ['print'],
    params: orderParams,
    produces: 'application/pdf',
    responses: { 200: { description: 'PDF' }, 404: { description: 'No such order', schema: ApiErrorSchema }, 503: unavailable },
  },
  health: {
    method: 'get',
    path: '/api/health',
    operationId: 'getHealth',
    summary: 'The gateway and every service it talks to: up or down only (the detailed report is on the internal port, HEALTH_PORT)',
    tag: 'operations',
    access: 'public',
    responses: {
      200: { description: 'All dependencies answer', schema: PublicHealthSchema },
      503: { description: 'Some dependency does not answer', schema: PublicHealthSchema },
    },
  },
  // The staff console (role staff): every change audited by the service that owns it.
  staffSearchAccounts: {
    method: 'post',
    path: '/api/staff/account-search',
    operationId: 'staffSearchAccounts',
    summary:
      'Staff: accounts whose email, username or name contains the query, newest first, a page at a time; ?cursor=&limit= as for listLeads (the same query in the body)',
    tag: 'staff',
    access: ['staff'],
    body: StaffSearchSchema,
    query: PageQuerySchema,
    responses: {
      200: { description: 'A page of the accounts found, and the next page’s cursor', schema: StaffSearchResultSchema },
      403: staffOnly,
      503: unavailable,
    },
  },
  staffGetAccount: {
    method: 'get',
    path: '/api/staff/accounts/:accountId',
    operationId: 'staffGetAccount',
    summary: 'Staff: one account and its profile settings (its audited changes: staffAccountAudit)',
    tag: 'staff',
    access: ['staff'],
    params: staffAccountParams,
    responses: { 200: { description: 'The account', schema: StaffAccountDetailSchema }, 403: staffOnly, 404: noAccount, 503: unavailable },
  },
  staffAccountAudit: {
    method: 'get',
    path: '/api/staff/accounts/:accountId/audit',
    operationId: 'staffAccountAudit',
    summary:
      'Staff: the account’s audited changes (role, partner, vanity paths, business), newest first, a page at a time; ?cursor=&limit= as for listLeads',
    tag: 'staff',
    access: ['staff'],
    params: staffAccountParams,
    query: PageQuerySchema,
    responses: {
      200: { description: 'A page of the changes, and the next page’s cursor', schema: StaffAuditPageSchema },
      403: staffOnly,
      404: noAccount,
      503: unavailable,
    },
  },
  staffSetRole: {
    method: 'put',
    path: '/api/staff/accounts/:accountId/role',
    operationId: 'staffSetRole',
    summary: 'Staff: make the account a team leader, or an ordinary user again (audited)',
    tag: 'staff',
    access: ['staff'],
    params: staffAccountParams,
    body: SetRoleSchema,
    responses: {
      200: { description: 'The account after the change', schema: StaffAccountDetailSchema },
      403: staffOnly,
      404: noAccount,
      409: { description: 'A print, staff or team-member account: its role is not changed here', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  staffRevokeRole: {
    method: 'post',
    path: '/api/staff/accounts/:accountId/role-revocation',
    operationId: 'staffRevokeRole',
    summary: 'Staff: take the print or staff role away; the account is an ordinary user at once, signed in or not (audited)',
    tag: 'staff',
    access: ['staff'],
    params: staffAccountParams,
    body: RevokeRoleSchema,
    responses: {
      200: { description: 'The account after the change', schema: StaffAccountDetailSchema },
      403: staffOnly,
      404: noAccount,
      409: { description: 'The account does not hold that role, or it is the caller’s own staff role', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  staffSetPartner: {
    method: 'put',
    path: '/api/staff/accounts/:accountId/partner',
    operationId: 'staffSetPartner',
    summary: 'Staff: make the account a partner (switches tiers freely) or not (audited)',
    tag: 'staff',
    access: ['staff'],
    params: staffAccountParams,
    body: SetPartnerSchema,
    responses: {
      200: { description: 'The account after the change', schema: StaffAccountDetailSchema },
      403: staffOnly,
      404: noAccount,
      503: unavailable,
    },
  },
  staffSetVanityPaths: {
    method: 'put',
    path: '/api/staff/accounts/:accountId/vanity-paths',
    operationId: 'staffSetVanityPaths',
    summary: 'Staff: the vanity paths that lead to the profile (/{path} redirects to /{username}), replacing the old ones (audited)',
    tag: 'staff',
    access: ['staff'],
    params: staffAccountParams,
    body: SetVanityPathsSchema,
    responses: {
      200: { description: 'The account after the change', schema: StaffAccountDetailSchema },
      403: staffOnly,
      404: noAccount,
      503: unavailable,
    },
  },
  staffSetBusiness: {
    method: 'put',
    path: '/api/staff/accounts/:accountId/business',
    operationId: 'staffSetBusiness',
    summary: 'Staff: the business profile (by username) whose styling and content the profile inherits, or null (audited)',
    tag: 'staff',
    access: ['staff'],
    params: staffAccountParams,
    body: SetBusinessSchema,
    responses: {
      200: { description: 'The account after the change', schema: StaffAccountDetailSchema },
      403: staffOnly,
      404: noAccount,
      503: unavailable,
    },
  },
  staffFailedProofs: {
    method: 'get',
    path: '/api/staff/failed-proofs',
    operationId: 'staffFailedProofs',
    summary:
      'Staff: the paid orders whose print proof failed to render (after its retries), newest first, with the error; ?cursor=&limit= as for listLeads',
    tag: 'staff',
    access: ['staff'],
    query: PageQuerySchema,
    responses: {
      200: { description: 'A page of the orders, and the next page’s cursor', schema: PrintQueueSchema },
      403: staffOnly,
      503: unavailable,
    },
  },
  staffRefundsDue: {
    method: 'get',
    path: '/api/staff/refunds',
    operationId: 'staffRefundsDue',
    summary:
      'Staff: payments to pay back by hand (a membership checkout given up and still paid, or one checkout paid twice), newest first, a page at a time; ?cursor=&limit= as for listLeads',
    tag: 'staff',
    access: ['staff'],
    query: PageQuerySchema,
    responses: {
      200: { description: 'A page of the payments, and the next page’s cursor', schema: StaffRefundsSchema },
      403: staffOnly,
      503: unavailable,
    },
  },
  staffRerenderProof: {
    method: 'post',
    path: '/api/staff/failed-proofs/:orderId/render',
    operationId: 'staffRerenderProof',
    summary: 'Staff: renders the order’s proof again (the print team’s “render again”)',
    tag: 'staff',
    access: ['staff'],
    params: orderParams,
    responses: {
      202: { description: 'Queued: the proof shows rendering', schema: PrintOrderSchema },
      403: staffOnly,
      404: { description: 'No such order', schema: ApiErrorSchema },
      409: { description: 'Already approved', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  listTeam: {
    method: 'get',
    path: '/api/team/reps',
    operationId: 'listTeam',
    summary: 'A page of the signed-in team leader’s sales reps, in the order they joined; ?cursor=&limit= as for listLeads',
    tag: 'teams',
    access: ['teamLeader'],
    query: PageQuerySchema,
    responses: { 200: { description: 'The reps, and the next page’s cursor', schema: TeamSchema }, 503: unavailable },
  },
  addRep: {
    method: 'post',
    path: '/api/team/reps',
    operationId: 'addRep',
    summary: 'Adds a sales rep (the leader confirms with their own password and stays signed in); the rep gets a welcome email',
    tag: 'teams',
    access: ['teamLeader'],
    body: AddRepRequestSchema,
    limits: [{ bucket: 'login-account', per: 'account', limit: 'RATE_LIMIT_LOGIN_ACCOUNT', whenUncounted: 'refuse' }],
    responses: {
      201: { description: 'Added', schema: RepSchema },
      401: { description: 'Not signed in, or AUTH_WRONG_PASSWORD', schema: ApiErrorSchema },
      403: csrf,
      503: unavailable,
    },
  },
  importReps: {
    method: 'post',
    path: '/api/team/reps/import',
    operationId: 'importReps',
    summary: 'Adds many reps at once (rows of a CSV): `dryRun` checks every row; otherwise all are added or none',
    tag: 'teams',
    access: ['teamLeader'],
    body: ImportRepsRequestSchema,
    limits: [{ bucket: 'login-account', per: 'account', limit: 'RATE_LIMIT_LOGIN_ACCOUNT', whenUncounted: 'refuse' }],
    responses: {
      200: { description: 'Checked (dryRun) or all added', schema: ImportRepsResultSchema },
      400: { description: 'Field errors named reps.<row>.<field>; nothing was added', schema: ApiErrorSchema },
      401: { description: 'Not signed in, or AUTH_WRONG_PASSWORD', schema: ApiErrorSchema },
      403: csrf,
      503: unavailable,
    },
  },
  updateRep: {
    method: 'put',
    path: '/api/team/reps/:accountId',
    operationId: 'updateRep',
    summary: 'Changes one of the leader’s reps (username, names, email, phone)',
    tag: 'teams',
    access: ['teamLeader'],
    body: RepFieldsSchema,
    params: { schema: z.object({ accountId: z.uuid() }), notFound: 'No such sales rep in your team.' },
    responses: {
      200: { description: 'Changed', schema: RepSchema },
      403: csrf,
      404: { description: 'Not a rep of this leader', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  removeRep: {
    method: 'delete',
    path: '/api/team/reps/:accountId',
    operationId: 'removeRep',
    summary: 'Removes a rep: they can no longer sign in, their page goes, their leads stay with the team',
    tag: 'teams',
    access: ['teamLeader'],
    params: { schema: z.object({ accountId: z.uuid() }), notFound: 'No such sales rep in your team.' },
    responses: {
      200: { description: 'Removed', schema: MessageResponseSchema },
      403: csrf,
      404: { description: 'Not a rep of this leader', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  offerRepPasses: {
    method: 'post',
    path: '/api/team/wallet-passes',
    operationId: 'offerRepPasses',
    summary: 'Gives every rep their wallet pass: each rep is emailed the links (to their own dashboard) of the wallets offered',
    tag: 'teams',
    access: ['teamLeader'],
    limits: [{ bucket: 'wallet-offer-account', per: 'account', limit: 'RATE_LIMIT_WALLET_OFFER_ACCOUNT', whenUncounted: 'refuse' }],
    responses: {
      200: { description: 'How many reps were emailed', schema: RepPassesSentSchema },
      403: csrf,
      404: { description: 'No wallet is configured, or the leader has no profile', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  exportTeamLeads: {
    method: 'get',
    path: '/api/team/leads.csv',
    operationId: 'exportTeamLeads',
    summary: 'The leads of the leader’s reps, current and former, as a CSV file, every one of them (streamed page by page)',
    tag: 'teams',
    access: ['teamLeader'],
    produces: 'text/csv',
    responses: { 200: { description: 'CSV, one lead a row, with the rep' }, 503: unavailable },
  },
  getTeamAnalytics: {
    method: 'get',
    path: '/api/team/analytics',
    operationId: 'getTeamAnalytics',
    summary:
      'The leader view: views, Save to Contact and leads per rep and for the team; ?from=&to= (YYYY-MM-DD) as for getAnalytics; a page of reps at a time, in the order they joined, ?cursor=&limit= as for listLeads',
    tag: 'teams',
    access: ['teamLeader'],
    query: TeamAnalyticsQuerySchema,
    responses: {
      200: {
        description: 'A page of the current reps, one row each, the team’s totals, and the next page’s cursor',
        schema: TeamAnalyticsReportSchema,
      },
      400: { description: 'A bad date or range; fieldErrors names it', schema: ApiErrorSchema },
      403: { description: 'Not a team leader, or not DigiPlatinum', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  exportTeamAnalytics: {
    method: 'get',
    path: '/api/team/analytics.csv',
    operationId: 'exportTeamAnalytics',
    summary: 'The leader view as CSV, one rep a row and the team’s totals; ?from=&to= as for getTeamAnalytics',
    tag: 'teams',
    access: ['teamLeader'],
    produces: 'text/csv',
    responses: {
      200: { description: 'CSV, one rep a row' },
      400: { description: 'A bad date or range', schema: ApiErrorSchema },
      403: { description: 'Not a team leader, or not DigiPlatinum', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  getSsoSettings: {
    method: 'get',
    path: '/api/team/sso',
    operationId: 'getSsoSettings',
    summary: 'The team’s company sign-in (OpenID Connect): issuer, client id, email domains, required or not; never the client secret',
    tag: 'teams',
    access: ['teamLeader'],
    responses: {
      200: { description: 'The settings (configured false when none are saved)', schema: SsoSettingsSchema },
      403: { description: 'Not a team leader, or not DigiPlatinum', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  saveSsoSettings: {
    method: 'put',
    path: '/api/team/sso',
    operationId: 'saveSsoSettings',
    summary: 'Saves the team’s company sign-in; the client secret is stored encrypted (an empty one keeps the stored secret)',
    tag: 'teams',
    access: ['teamLeader'],
    body: SaveSsoSettingsSchema,
    responses: {
      200: { description: 'Saved', schema: SsoSettingsSchema },
      400: {
        description: 'Field errors: the issuer, client id, client secret (required the first time), or a domain another team uses',
        schema: ApiErrorSchema,
      },
      403: { description: 'Not a team leader, not DigiPlatinum, or a cross-site request / missing x-csrf-token', schema: ApiErrorSchema },
      503: { description: 'A service did not answer, or company sign-in is not available on this server', schema: ApiErrorSchema },
    },
  },
  removeSsoSettings: {
    method: 'delete',
    path: '/api/team/sso',
    operationId: 'removeSsoSettings',
    summary: 'Removes the team’s company sign-in: reps sign in with their passwords again',
    tag: 'teams',
    access: ['teamLeader'],
    responses: {
      200: { description: 'Removed', schema: MessageResponseSchema },
      403: { description: 'Not a team leader, not DigiPlatinum, or a cross-site request / missing x-csrf-token', schema: ApiErrorSchema },
      404: { description: 'No company sign-in was set up', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  startSso: {
    method: 'post',
    path: '/api/sso/start',
    operationId: 'startSso',
    summary:
      'The login page’s "Sign in with your company account": finds the team’s provider by the email’s domain or the team link and answers where to send the browser (authorization code flow with PKCE, state and nonce)',
    tag: 'accounts',
    access: 'public',
    body: SsoStartSchema,
    limits: [{ bucket: 'login-ip', per: 'ip', limit: 'RATE_LIMIT_LOGIN_IP', whenUncounted: 'refuse' }],
    responses: {
      200: {
        description: 'The provider’s authorization URL (sets the short-lived cookie binding the sign-in to this browser)',
        schema: SsoRedirectSchema,
      },
      403: forbidden,
      404: { description: 'No team’s company sign-in for this email domain or team link', schema: ApiErrorSchema },
      503: {
        description: 'The provider or a service did not answer, or company sign-in is not available on this server',
        schema: ApiErrorSchema,
      },
    },
  },
  ssoCallback: {
    method: 'get',
    path: '/api/sso/callback',
    operationId: 'ssoCallback',
    summary:
      'Where the provider sends the browser back: checks the state (once), exchanges the code with the PKCE verifier, checks the ID token (signature, issuer, audience, expiry, nonce) and that the email is of that team, then signs in',
    tag: 'accounts',
    access: 'public',
    query: SsoCallbackQuerySchema,
    limits: [{ bucket: 'login-ip', per: 'ip', limit: 'RATE_LIMIT_LOGIN_IP', whenUncounted: 'refuse' }],
    responses: {
      303: { description: 'Signed in: to /dashboard with the session cookie; otherwise to /login?sso_error=<code> (SsoMessages.errors)' },
    },
  },
  getScimSettings: {
    method: 'get',
    path: '/api/team/scim',
    operationId: 'getScimSettings',
    summary: 'The team’s SCIM provisioning: whether a token exists, when it was made and last used, and the base URL to give the provider',
    tag: 'teams',
    access: ['teamLeader'],
    responses: {
      200: { description: 'The state (configured false without a token); never the token', schema: ScimSettingsSchema },
      403: { description: 'Not a team leader, or not DigiPlatinum', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  issueScimToken: {
    method: 'post',
    path: '/api/team/scim/token',
    operationId: 'issueScimToken',
    summary: 'Makes the team’s SCIM token, replacing any earlier one (which stops working at once); the token is shown this once',
    tag: 'teams',
    access: ['teamLeader'],
    responses: {
      201: { description: 'The new token and the base URL; only its SHA-256 is stored', schema: ScimTokenIssuedSchema },
      403: { description: 'Not a team leader, not DigiPlatinum, or a cross-site request / missing x-csrf-token', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  revokeScimToken: {
    method: 'delete',
    path: '/api/team/scim/token',
    operationId: 'revokeScimToken',
    summary: 'Revokes the team’s SCIM token: the provider can no longer provision reps',
    tag: 'teams',
    access: ['teamLeader'],
    responses: {
      200: { description: 'Revoked', schema: MessageResponseSchema },
      403: { description: 'Not a team leader, not DigiPlatinum, or a cross-site request / missing x-csrf-token', schema: ApiErrorSchema },
      404: { description: 'There was no token', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  listScimAudit: {
    method: 'get',
    path: '/api/team/scim/audit',
    operationId: 'listScimAudit',
    summary: 'The team’s SCIM calls, newest first: time, method, path, outcome and the user affected (never the token)',
    tag: 'teams',
    access: ['teamLeader'],
    query: PageQuerySchema,
    responses: {
      200: { description: 'A page of calls', schema: ScimAuditSchema },
      400: { description: 'A bad cursor or limit', schema: ApiErrorSchema },
      403: { description: 'Not a team leader, or not DigiPlatinum', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  staffTeamSignIn: {
    method: 'get',
    path: '/api/staff/accounts/:accountId/team-sign-in',
    operationId: 'staffTeamSignIn',
    summary: 'Staff: a team leader’s company sign-in (configured, required) and SCIM (token present, made, last used)',
    tag: 'staff',
    access: ['staff'],
    params: staffAccountParams,
    responses: { 200: { description: 'The state', schema: TeamSignInStateSchema }, 403: staffOnly, 503: unavailable },
  },
  staffTeamSignInOff: {
    method: 'post',
    path: '/api/staff/accounts/:accountId/team-sign-in/off',
    operationId: 'staffTeamSignInOff',
    summary: 'Staff: turns a team’s company sign-in and/or SCIM off (the settings or the token are removed; logged)',
    tag: 'staff',
    access: ['staff'],
    params: staffAccountParams,
    body: TeamSignInOffSchema,
    responses: { 200: { description: 'The state after', schema: TeamSignInStateSchema }, 403: staffOnly, 503: unavailable },
  },
  scimServiceProviderConfig: {
    method: 'get',
    path: '/scim/v2/ServiceProviderConfig',
    operationId: 'scimServiceProviderConfig',
    summary: 'SCIM: what this service supports (PATCH yes, bulk, sort, ETags and password changes no, filter userName eq)',
    tag: 'scim',
    access: 'public',
    produces: SCIM_MEDIA_TYPE,
    limits: [scimLimits[0]],
    responses: { 200: scimDiscovery },
  },
  scimResourceTypes: {
    method: 'get',
    path: '/scim/v2/ResourceTypes',
    operationId: 'scimResourceTypes',
    summary: 'SCIM: the resource types (User only)',
    tag: 'scim',
    access: 'public',
    produces: SCIM_MEDIA_TYPE,
    limits: [scimLimits[0]],
    responses: { 200: scimDiscovery },
  },
  scimSchemas: {
    method: 'get',
    path: '/scim/v2/Schemas',
    operationId: 'scimSchemas',
    summary: 'SCIM: the User schema as DigiCard keeps it',
    tag: 'scim',
    access: 'public',
    produces: SCIM_MEDIA_TYPE,
    limits: [scimLimits[0]],
    responses: { 200: scimDiscovery },
  },
  scimCreateUser: {
    method: 'post',
    path: '/scim/v2/Users',
    operationId: 'scimCreateUser',
    summary: 'SCIM: creates a rep in the token’s team, as the Teams section does (the leader’s business, a welcome email)',
    tag: 'scim',
    access: 'scim',
    produces: SCIM_MEDIA_TYPE,
    limits: scimLimits,
    responses: {
      201: scimUser('The new user'),
      400: scimBadUser,
      409: { description: 'uniqueness: a user (or any account) has this userName or email', schema: ScimErrorSchema },
      ...scimFailures,
    },
  },
  scimListUsers: {
    method: 'get',
    path: '/scim/v2/Users',
    operationId: 'scimListUsers',
    summary: 'SCIM: the team’s users, optionally filter=userName eq "…" (or externalId, id), paged by startIndex and count',
    tag: 'scim',
    access: 'scim',
    produces: SCIM_MEDIA_TYPE,
    limits: scimLimits,
    responses: {
      200: { description: 'A ListResponse', schema: ScimListResponseSchema },
      400: { description: 'invalidFilter: a filter other than attribute eq "value"', schema: ScimErrorSchema },
      ...scimFailures,
    },
  },
  scimGetUser: {
    method: 'get',
    path: '/scim/v2/Users/:scimUserId',
    operationId: 'scimGetUser',
    summary: 'SCIM: one user of the token’s team',
    tag: 'scim',
    access: 'scim',
    params: scimUserParams,
    produces: SCIM_MEDIA_TYPE,
    limits: scimLimits,
    responses: { 200: scimUser('The user'), 404: scimNoUser, ...scimFailures },
  },
  scimReplaceUser: {
    method: 'put',
    path: '/scim/v2/Users/:scimUserId',
    operationId: 'scimReplaceUser',
    summary: 'SCIM: replaces a user’s attributes (active false deactivates: sessions ended, page hidden; true restores)',
    tag: 'scim',
    access: 'scim',
    params: scimUserParams,
    produces: SCIM_MEDIA_TYPE,
    limits: scimLimits,
    responses: {
      200: scimUser('The user as stored'),
      400: scimBadUser,
      404: scimNoUser,
      409: { description: 'uniqueness: another account has this userName or email', schema: ScimErrorSchema },
      ...scimFailures,
    },
  },
  scimPatchUser: {
    method: 'patch',
    path: '/scim/v2/Users/:scimUserId',
    operationId: 'scimPatchUser',
    summary:
      'SCIM: changes a user with a PatchOp; both forms providers send ({"op":"replace","value":{"active":false}} and {"op":"Replace","path":"active","value":"False"})',
    tag: 'scim',
    access: 'scim',
    params: scimUserParams,
    produces: SCIM_MEDIA_TYPE,
    limits: scimLimits,
    responses: {
      200: scimUser('The user as stored'),
      400: { description: 'invalidSyntax, invalidPath, noTarget or invalidValue', schema: ScimErrorSchema },
      404: scimNoUser,
      409: { description: 'uniqueness: another account has this userName or email', schema: ScimErrorSchema },
      ...scimFailures,
    },
  },
  scimDeleteUser: {
    method: 'delete',
    path: '/scim/v2/Users/:scimUserId',
    operationId: 'scimDeleteUser',
    summary: 'SCIM: removes the rep as the Teams section does (signed out, page gone, leads to the leader)',
    tag: 'scim',
    access: 'scim',
    params: scimUserParams,
    limits: scimLimits,
    responses: { 204: { description: 'Removed' }, 404: scimNoUser, ...scimFailures },
  },
  getWebhook: {
    method: 'get',
    path: '/api/crm/webhook',
    operationId: 'getWebhook',
    summary: 'The owner’s CRM webhook: address, on or off, and the signing secret (DigiGold and up)',
    tag: 'crm',
    access: 'account',
    responses: {
      200: { description: 'The settings (endpoint null when none is saved)', schema: WebhookSettingsSchema },
      403: crmUpgrade,
      503: unavailable,
    },
  },
  saveWebhook: {
    method: 'put',
    path: '/api/crm/webhook',
    operationId: 'saveWebhook',
    summary: 'Saves the CRM webhook’s address (https, a public address) and whether it is on; the first save makes the secret',
    tag: 'crm',
    access: 'account',
    body: SaveWebhookSchema,
    limits: crmLimit,
    responses: {
      200: { description: 'Saved', schema: WebhookSettingsSchema },
      400: {
        description: 'Not https, a private or local address, or a name that does not resolve; fieldErrors.url says which',
        schema: ApiErrorSchema,
      },
      403: crmUpgrade,
      503: unavailable,
    },
  },
  rotateWebhookSecret: {
    method: 'post',
    path: '/api/crm/webhook/secret',
    operationId: 'rotateWebhookSecret',
    summary: 'Replaces the signing secret; deliveries from now on are signed with the new one',
    tag: 'crm',
    access: 'account',
    limits: crmLimit,
    responses: {
      200: { description: 'The settings with the new secret', schema: WebhookSettingsSchema },
      403: crmUpgrade,
      404: { description: 'No webhook saved yet', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  sendTestWebhook: {
    method: 'post',
    path: '/api/crm/webhook/test',
    operationId: 'sendTestWebhook',
    summary: 'Posts a sample lead (type lead.test) to the saved webhook, signed and logged like a real one',
    tag: 'crm',
    access: 'account',
    limits: crmLimit,
    responses: {
      202: { description: 'Queued; the delivery log shows the outcome', schema: WebhookTestSentSchema },
      403: crmUpgrade,
      404: { description: 'No webhook saved yet', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
  listWebhookDeliveries: {
    method: 'get',
    path: '/api/crm/deliveries',
    operationId: 'listWebhookDeliveries',
    summary:
      'The owner’s webhook deliveries (status, attempts, last response code), newest first, a page at a time; ?cursor=&limit= as for listLeads',
    tag: 'crm',
    access: 'account',
    query: PageQuerySchema,
    responses: {
      200: { description: 'A page of the deliveries, newest first, and the next page’s cursor', schema: WebhookDeliveryListSchema },
      403: crmUpgrade,
      503: unavailable,
    },
  },
  getWebhookDelivery: {
    method: 'get',
    path: '/api/crm/deliveries/:deliveryId',
    operationId: 'getWebhookDelivery',
    summary: 'One delivery with every attempt (time, HTTP status or network error, duration, a short excerpt of the answer)',
    tag: 'crm',
    access: 'account',
    params: { schema: z.object({ deliveryId: z.uuid() }), notFound: 'Delivery not found.' },
    responses: {
      200: { description: 'The delivery', schema: WebhookDeliveryDetailSchema },
      403: crmUpgrade,
      404: { description: 'No such delivery of this owner', schema: ApiErrorSchema },
      503: unavailable,
    },
  },
} as const satisfies Record<string, HttpRoute>;
