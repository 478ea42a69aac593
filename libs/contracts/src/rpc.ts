import { z } from 'zod';
import {
  AccountNamesSchema,
  DeleteAccountSchema,
  EmailChangeConfirmSchema,
  EmailChangeRequestSchema,
  EmailLinkCheckSchema,
  EmailLinkOwnerSchema,
  LoginRequestSchema,
  PasswordResetRequestSchema,
  PasswordResetSchema,
  RegistrationSchema,
  RoleSchema,
  SessionUserSchema,
  VerifyEmailSchema,
  type Role,
} from './accounts.js';
import { CatalogueItemRefSchema, CatalogueItemSchema, CatalogueListSchema } from './catalogue.js';
import { EnquiryAcceptedSchema, SubmitEnquiryRequestSchema } from './enquiries.js';
import {
  ImagePurposeSchema,
  LeadListSchema,
  LeadSubmissionSchema,
  OwnProfileSchema,
  ProfileDocumentSchema,
  ProfileSettingsSchema,
  PublicProfileSchema,
  StoredImageSchema,
  ViewSourceSchema,
} from './profiles.js';
import { HealthReportSchema } from './health.js';
import {
  BillingSchema,
  PaymentHistorySchema,
  CheckoutRequestSchema,
  ItnReceiptSchema,
  OrderListSchema,
  OrderSchema,
  CardSchema,
  CardSerialSchema,
  CardTargetSchema,
  FileSchema,
  MoveOrderSchema,
  OrderDetailListSchema,
  OrderDetailSchema,
  PrintOrderSchema,
  PrintQueueSchema,
  ProofFileKinds,
  RecordCardSchema,
  AssignCardSchema,
  RequestChangesSchema,
  SetCardDisabledSchema,
  PaymentRedirectSchema,
  PlanListSchema,
  RegisterCommandSchema,
  StartMembershipSchema,
} from './commerce.js';
import { ExportChunkSchema, PageRequestSchema } from './paging.js';
import type { ServiceName } from './services.js';
import {
  SetBusinessSchema,
  SetPartnerSchema,
  SetRoleSchema,
  RevokeRoleSchema,
  SetVanityPathsSchema,
  StaffAccountRef,
  StaffAuditPageSchema,
  StaffAuditRequestSchema,
  StaffIdentityViewSchema,
  StaffProfileViewSchema,
  StaffRefundsSchema,
  StaffSearchResultSchema,
  StaffSearchPageSchema,
} from './staff.js';
import {
  AnalyticsBatchSchema,
  AnalyticsRangeSchema,
  AnalyticsReportSchema,
  TeamAnalyticsNumbersSchema,
  TeamAnalyticsRequestSchema,
} from './analytics.js';
import {
  SaveWebhookSchema,
  WebhookDeliveryDetailSchema,
  WebhookDeliveryListSchema,
  WebhookSettingsSchema,
  WebhookTestSentSchema,
} from './crm.js';
import {
  ApplePassFileSchema,
  ApplePassSerialsSchema,
  DeviceLibraryIdentifierSchema,
  PassSerialSchema,
  PassTypeIdentifierSchema,
  PassUpdateTagSchema,
  WalletStatusSchema,
  GoogleWalletLinkSchema,
  RepPassesSentSchema,
} from './wallet.js';
import {
  AddRepRequestSchema,
  ImportRepsRequestSchema,
  ImportRepsResultSchema,
  RepFieldsSchema,
  RepRefSchema,
  RepSchema,
  TeamSchema,
} from './teams.js';
import {
  SsoAccountStateSchema,
  SsoProviderQuerySchema,
  SsoProviderSchema,
  StoreSsoSettingsSchema,
  StoredSsoSettingsSchema,
} from './sso.js';
import {
  ScimAuditSchema,
  ScimCreateUserSchema,
  ScimListUsersSchema,
  ScimPatchUserSchema,
  ScimRefusedSchema,
  ScimReplaceUserSchema,
  ScimTokenStateSchema,
  ScimUserListSchema,
  ScimUserRefSchema,
  ScimUserResultSchema,
  StoreScimTokenSchema,
  TeamSignInOffFields,
  TeamSignInStateSchema,
} from './scim.js';

/** Who is asking: set by the gateway from its session, never taken from the browser. */
export const RequestMetaSchema = z.object({
  requestId: z.string(),
  userId: z.uuid().nullable(),
  role: RoleSchema.nullable(),
  ip: z.string().nullable(),
});
export type RequestMeta = z.infer<typeof RequestMetaSchema>;

/**
 * Who may ask, checked by the owning service from `meta` (the gateway checks the same before asking):
 * - `public`: anyone; `meta.userId` may be null (a visitor) and is the viewer when set;
 * - `account`: a signed-in account, which is always the one acted on: its id comes from `meta.userId`, never from
 *   the body, so no caller can name someone else's account;
 * - `service`: another service acting on an event (no person behind it);
 * - a list of roles: a signed-in account with one of them.
 */
export type RpcAccess = 'public' | 'account' | 'service' | readonly Role[];

export interface RpcDefinition<Req extends z.ZodType, Res extends z.ZodType, A extends RpcAccess = RpcAccess> {
  /** `<service>.<entity>.<verb>` */
  readonly subject: string;
  readonly owner: ServiceName;
  readonly access: A;
  readonly request: Req;
  readonly response: Res;
}

function rpc<Req extends z.ZodType, Res extends z.ZodType, const A extends RpcAccess>(
  owner: ServiceName,
  subject: string,
  access: A,
  request: Req,
  response: Res,
): RpcDefinition<Req, Res, A> {
  if (!subject.startsWith(`${owner}.`)) throw new Error(`RPC subject ${subject} must start with its owner ${owner}`);
  return { subject, owner, access, request, response };
}

/** Every request/reply subject, declared once. The envelope sent over NATS is `{ meta, body }`. */
const None = z.object({});
const OrderRef = z.object({ orderId: z.uuid() });
/** For services acting on an event about an account (no person is signed in behind the call). */
const AccountRef = z.object({ accountId: z.uuid() });
/**
 * A single-use token for an email link, made by the service that sends the email: only its SHA-256 (hex) crosses the
 * bus, never the token. Identity stores the hash with its lifetime and answers where to send the link.
 */
const TokenToIssue = AccountRef.extend({ tokenHash: z.string().regex(/^[0-9a-f]{64}$/, 'A token hash is 64 hex digits.') });
/** Where the link goes, and until when it works. Request/reply only. */
const IssuedToken = z.object({
  email: z.string(),
  firstName: z.string(),
  expiresAt: z.iso.datetime(),
});

/** A pass as a device names it: its type, its serial and its own token (never an account). */
const ApplePassRef = z.object({
  passTypeIdentifier: PassTypeIdentifierSchema,
  serialNumber: PassSerialSchema,
  authenticationToken: z.string().max(200),
});

/** Who buys a membership: a team rep's tier is the team's (the leader chooses and pays), so a rep is refused. */
const MembershipBuyers = ['user', 'teamLeader'] as const satisfies readonly Role[];

/** Team reps' accounts as identity made them. */
const RepAccountsSchema = z.object({
  accounts: z.array(
    z.object({ accountId: z.uuid(), username: z.string(), email: z.string(), firstName: z.string(), lastName: z.string() }),
  ),
});

export const Rpc = {
  submitEnquiry: rpc('orders', 'orders.enquiry.submit', 'public', SubmitEnquiryRequestSchema, EnquiryAcceptedSchema),
  listCatalogue: rpc('orders', 'orders.catalogue.list', 'public', None, CatalogueListSchema),
  getCatalogueItem: rpc('orders', 'orders.catalogue.get', 'public', CatalogueItemRefSchema, CatalogueItemSchema),

  register: rpc('identity', 'identity.account.register', 'public', RegisterCommandSchema, RegistrationSchema),
  authenticate: rpc('identity', 'identity.account.authenticate', 'public', LoginRequestSchema, SessionUserSchema),
  getAccount: rpc('identity', 'identity.account.get', 'account', None, SessionUserSchema),
  /**
   * The account of an email a team's OpenID Connect provider has just proved (the gateway checked the ID token's
   * signature, issuer, audience, expiry and nonce): 401 AUTH_FAILED for no account or a disabled one. `public` since
   * nobody is signed in yet; of the bus users only the gateway may publish it, and only its SSO flow does.
   */
  ssoSignIn: rpc('identity', 'identity.account.sso-sign-in', 'public', z.object({ email: z.string().max(254) }), SessionUserSchema),
  /**
   * An account's name, email and state, for a service acting on an event about that account (notifications' receipt
   * and failed-charge emails): `service` access, so only the NATS users of the services listing it in `ServiceCalls`
   * may ask, and the account is named in the body, never posed as in `meta.userId`.
   */
  accountById: rpc('identity', 'identity.account.get-by-id', 'service', AccountRef, SessionUserSchema),
  /**
   * The address the account has proved (a link sent to it was followed), or null: the only address under which another
   * service may hand the account what it keeps by email (enquiries, the mail log) or delete it. Not `isVerified`: a
   * rep's account is verified on the leader's word, which proves no mailbox. `service` access, as `accountById`.
   */
  provedEmail: rpc(
    'identity',
    'identity.account.proved-email',
    'service',
    AccountRef,
    z.object({ email: z.string().nullable(), provedAt: z.iso.datetime().nullable() }),
  ),
  /**
   * Verification and reset links (these two sign their account in): a caller signed in (`meta.userId`) to another
   * account than the link's is refused with 409 LINK_FOR_OTHER_ACCOUNT before anything is used or changed.
   */
  verifyEmail: rpc('identity', 'identity.email.verify', 'public', VerifyEmailSchema, SessionUserSchema),
  /** Whose account a live verification or reset link is for, asked by a signed-in browser; the link is not used. */
  checkEmailLink: rpc('identity', 'identity.email-link.check', 'account', EmailLinkCheckSchema, EmailLinkOwnerSchema),
  requestVerification: rpc('identity', 'identity.verification.request', 'account', None, z.object({ requested: z.boolean() })),
  issueVerificationToken: rpc('identity', 'identity.verification.issue', 'service', TokenToIssue, IssuedToken.nullable()),
  requestPasswordReset: rpc(
    'identity',
    'identity.password-reset.request',
    'public',
    PasswordResetRequestSchema,
    z.object({ requested: z.boolean() }),
  ),
  issuePasswordResetToken: rpc('identity', 'identity.password-reset.issue', 'service', TokenToIssue, IssuedToken.nullable()),
  resetPassword: rpc('identity', 'identity.password.reset', 'public', PasswordResetSchema, SessionUserSchema),
  deleteAccount: rpc('identity', 'identity.account.delete', 'account', DeleteAccountSchema, z.object({ deleted: z.literal(true) })),
  /** The owner's first and last name: `identity.user.changed` tells profiles (the public page shows them). */
  renameAccount: rpc('identity', 'identity.account.rename', 'account', AccountNamesSchema, SessionUserSchema),
  /**
   * A new email, confirmed by the password: kept as pending until the link sent to it is used. The same answer when
   * the address has an account (nothing changes; that address's owner is emailed instead).
   */
  requestEmailChange: rpc(
    'identity',
    'identity.email-change.request',
    'account',
    EmailChangeRequestSchema,
    z.object({ requested: z.literal(true) }),
  ),
  /** For notifications, acting on `identity.email-change.requested`: the link's hash, for the pending address only. */
  issueEmailChangeToken: rpc(
    'identity',
    'identity.email-change.issue',
    'service',
    TokenToIssue.extend({ newEmail: z.string() }),
    IssuedToken.nullable(),
  ),
  /** The link in that email: the account's email becomes the address it was sent to. */
  confirmEmailChange: rpc('identity', 'identity.email-change.confirm', 'public', EmailChangeConfirmSchema, SessionUserSchema),
  /**
   * POPIA's right of access: each service answers for what it holds about the signed-in account (`meta.userId`), in
   * chunks (`ExportChunkSchema`: its fields, then each of its lists a page at a time); the gateway streams the parts
   * into one file. Orders (orders, enquiries under the account's email), payments (requests, payments, subscriptions,
   * PayFast's notifications), teams (the account's team links) and notifications (the mail sent to its address).
   */
  exportOrdersData: rpc('orders', 'orders.data.export', 'account', PageRequestSchema, ExportChunkSchema),
  exportPaymentsData: rpc('payments', 'payments.data.export', 'account', PageRequestSchema, ExportChunkSchema),
  exportTeamsData: rpc('teams', 'teams.data.export', 'account', PageRequestSchema, ExportChunkSchema),
  exportMailData: rpc('notifications', 'notifications.data.export', 'account', PageRequestSchema, ExportChunkSchema),
  /** Everything identity holds about the signed-in account (POPIA), without secrets (no password hash, no token hashes). */
  exportAccountData: rpc('identity', 'identity.data.export', 'account', PageRequestSchema, ExportChunkSchema),

  getOwnProfile: rpc('profiles', 'profiles.profile.get', 'account', None, OwnProfileSchema),
  /**
   * An account's profile, for another service acting on that account's behalf (orders printing a buyer's proof,
   * notifications checking an owner's tier for CRM): `service` access, so only the NATS users of the services that
   * list it in `ServiceCalls` may ask, and the account is named in the body, never posed as in `meta.userId`.
   */
  profileOfAccount: rpc('profiles', 'profiles.profile.get-for-account', 'service', z.object({ accountId: z.uuid() }), OwnProfileSchema),
  saveProfile: rpc('profiles', 'profiles.profile.save', 'account', z.object({ document: ProfileDocumentSchema }), OwnProfileSchema),
  saveSettings: rpc('profiles', 'profiles.settings.save', 'account', ProfileSettingsSchema, OwnProfileSchema),
  storeImage: rpc(
    'profiles',
    'profiles.image.store',
    'account',
    z.object({
      purpose: ImagePurposeSchema,
      contentType: z.enum(['image/webp', 'image/png', 'image/jpeg']),
      dataBase64: z.string().max(1_000_000),
      width: z.number().int().positive(),
      height: z.number().int().positive(),
    }),
    StoredImageSchema,
  ),
  /**
   * An uploaded image: only while its owner's profile is public and verified, or to its owner (`meta.userId`);
   * `shareable` says which (only a shareable one may be cached by browsers and proxies).
   */
  getMedia: rpc(
    'profiles',
    'profiles.media.get',
    'public',
    z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{10,64}$/) }),
    z.object({ contentType: z.string(), dataBase64: z.string(), shareable: z.boolean().default(true) }),
  ),
  /**
   * An uploaded image of the account named in the body, whether or not its profile is public or verified yet (orders
   * prints a buyer's logo before the page is shared): `service` access, for the services listing it in `ServiceCalls`;
   * 404 when the image is not that account's.
   */
  mediaOfAccount: rpc(
    'profiles',
    'profiles.media.get-for-account',
    'service',
    z.object({ accountId: z.uuid(), id: z.string().regex(/^[A-Za-z0-9_-]{10,64}$/) }),
    z.object({ contentType: z.string(), dataBase64: z.string(), shareable: z.boolean().default(true) }),
  ),
  /** The viewer is `meta.userId`: its owner sees a private or unverified profile, nobody else does. */
  getPublicProfile: rpc(
    'profiles',
    'profiles.profile.public',
    'public',
    z.object({ username: z.string().max(64), source: ViewSourceSchema.nullable() }),
    z.object({ profile: PublicProfileSchema, isOwner: z.boolean(), shareable: z.boolean() }),
  ),
  resolvePath: rpc(
    'profiles',
    'profiles.path.resolve',
    'public',
    z.object({ path: z.string().max(200) }),
    z.object({ username: z.string() }),
  ),
  submitLead: rpc(
    'profiles',
    'profiles.lead.submit',
    'public',
    z.object({ username: z.string().max(64), submission: LeadSubmissionSchema }),
    z.object({ id: z.uuid() }),
  ),
  /** A page of the owner's leads, newest first. */
  listLeads: rpc('profiles', 'profiles.lead.list', 'account', PageRequestSchema, LeadListSchema),
  /** The owner's profile, images, leads and analytics (POPIA), in chunks as the other services' parts. */
  exportData: rpc('profiles', 'profiles.data.export', 'account', PageRequestSchema, ExportChunkSchema),
  /** The owner's analytics: last-30-day totals for every tier, any range in full for DigiPlatinum (403 otherwise). */
  getAnalytics: rpc('profiles', 'profiles.analytics.get', 'account', AnalyticsRangeSchema, AnalyticsReportSchema),

  // Wallet passes (issue 26): profiles owns them (decision 11).
  getWalletStatus: rpc('profiles', 'profiles.wallet.get', 'account', None, WalletStatusSchema),
  /** The owner's Apple Wallet pass: made on the first ask, the same serial (kept current) after that. */
  issueApplePass: rpc('profiles', 'profiles.apple-pass.issue', 'account', None, ApplePassFileSchema),
  /** Save to Google Wallet: the owner's link (a JWT signed with the service account's key) to their one pass object. */
  issueGoogleWalletLink: rpc('profiles', 'profiles.google-wallet.link', 'account', None, GoogleWalletLinkSchema),
  /**
   * A team leader gives every rep their pass: each rep (with a profile) is sent an email with their own wallet links
   * (`profiles.wallet-passes.offered`, one per rep, emailed by notifications).
   */
  offerRepPasses: rpc('profiles', 'profiles.wallet-passes.offer', ['teamLeader'], None, RepPassesSentSchema),
  /**
   * Apple's pass web service, asked by a device through the gateway: no account behind it (`public`), the pass's own
   * token in the body, checked by profiles in constant time (401 when it is not that pass's).
   */
  latestApplePass: rpc(
    'profiles',
    'profiles.apple-pass.latest',
    'public',
    ApplePassRef.extend({ ifModifiedSince: z.iso.datetime().nullable() }),
    z.discriminatedUnion('modified', [z.object({ modified: z.literal(false) }), ApplePassFileSchema.extend({ modified: z.literal(true) })]),
  ),
  registerApplePassDevice: rpc(
    'profiles',
    'profiles.apple-device.register',
    'public',
    ApplePassRef.extend({ deviceLibraryIdentifier: DeviceLibraryIdentifierSchema, pushToken: z.string().regex(/^[0-9A-Fa-f]{16,200}$/) }),
    z.object({ created: z.boolean() }),
  ),
  unregisterApplePassDevice: rpc(
    'profiles',
    'profiles.apple-device.unregister',
    'public',
    ApplePassRef.extend({ deviceLibraryIdentifier: DeviceLibraryIdentifierSchema }),
    z.object({ removed: z.boolean() }),
  ),
  /** Which of the device's passes changed since the tag (Apple sends no token here: the device id is the secret). */
  listApplePassSerials: rpc(
    'profiles',
    'profiles.apple-device.passes',
    'public',
    z.object({
      deviceLibraryIdentifier: DeviceLibraryIdentifierSchema,
      passTypeIdentifier: PassTypeIdentifierSchema,
      passesUpdatedSince: PassUpdateTagSchema.nullable(),
    }),
    ApplePassSerialsSchema.nullable(),
  ),

  // CRM hand-off (DigiGold and up): the owner's own webhook and its delivery log; notifications checks the tier.
  getWebhook: rpc('notifications', 'notifications.webhook.get', 'account', None, WebhookSettingsSchema),
  saveWebhook: rpc('notifications', 'notifications.webhook.save', 'account', SaveWebhookSchema, WebhookSettingsSchema),
  rotateWebhookSecret: rpc('notifications', 'notifications.webhook-secret.rotate', 'account', None, WebhookSettingsSchema),
  sendTestWebhook: rpc('notifications', 'notifications.webhook.test', 'account', None, WebhookTestSentSchema),
  listWebhookDeliveries: rpc(
    'notifications',
    'notifications.webhook-delivery.list',
    'account',
    PageRequestSchema,
    WebhookDeliveryListSchema,
  ),
  getWebhookDelivery: rpc(
    'notifications',
    'notifications.webhook-delivery.get',
    'account',
    z.object({ deliveryId: z.uuid() }),
    WebhookDeliveryDetailSchema,
  ),

  /** Prices the basket from the catalogue (never from the browser) and keeps the order, awaiting payment. */
  placeOrder: rpc('orders', 'orders.order.place', 'account', CheckoutRequestSchema, OrderSchema),
  listOrders: rpc('orders', 'orders.order.list', 'account', PageRequestSchema, OrderListSchema),
  getOrder: rpc('orders', 'orders.order.get', 'account', OrderRef, OrderSchema),
  /** For payments, which asks before it builds a PayFast request: the order and whose it is. */
  orderForPayment: rpc('orders', 'orders.order.for-payment', 'service', OrderRef, z.object({ order: OrderSchema, accountId: z.uuid() })),

  // Print proofs, order states and cards (issue 10). The owner's are `account` (always their own orders); the print
  // console's are for the `print` role only.
  listOrderDetails: rpc('orders', 'orders.order.details', 'account', PageRequestSchema, OrderDetailListSchema),
  /** The owner cancels one of their own orders that still awaits payment. */
  cancelOrder: rpc('orders', 'orders.order.cancel', 'account', OrderRef, OrderDetailSchema),
  approveProof: rpc('orders', 'orders.proof.approve', 'account', OrderRef, OrderDetailSchema),
  requestProofChanges: rpc(
    'orders',
    'orders.proof.request-changes',
    'account',
    OrderRef.extend(RequestChangesSchema.shape),
    OrderDetailSchema,
  ),
  ownProofFile: rpc('orders', 'orders.proof.file', 'account', OrderRef.extend({ kind: z.enum(ProofFileKinds) }), FileSchema),
  setCardDisabled: rpc(
    'orders',
    'orders.card.set-disabled',
    'account',
    z.object({ serial: CardSerialSchema }).extend(SetCardDisabledSchema.shape),
    CardSchema,
  ),
  /**
   * A team leader points a card of the team (bought by them or one of their reps) at one of their current reps, or
   * back at the buyer; checked against orders' own record of the teams (`teams.member.added`/`.removed`).
   */
  assignCard: rpc(
    'orders',
    'orders.card.assign',
    ['teamLeader'],
    z.object({ serial: CardSerialSchema }).extend(AssignCardSchema.shape),
    CardSchema,
  ),
  /** `/c/{serial}`: where a card points (public: anyone holding the card). */
  resolveCard: rpc('orders', 'orders.card.resolve', 'public', z.object({ serial: CardSerialSchema }), CardTargetSchema),
  printQueue: rpc('orders', 'orders.print.queue', ['print'], PageRequestSchema, PrintQueueSchema),
  printOrder: rpc('orders', 'orders.print.order', ['print'], OrderRef, PrintOrderSchema),
  printProofFile: rpc('orders', 'orders.print.proof-file', ['print'], OrderRef.extend({ kind: z.enum(ProofFileKinds) }), FileSchema),
  moveOrder: rpc('orders', 'orders.print.move', ['print'], OrderRef.and(MoveOrderSchema), PrintOrderSchema),
  recordCard: rpc(
    'orders',
    'orders.print.record-card',
    ['print'],
    OrderRef.extend({ serial: CardSerialSchema }).extend(RecordCardSchema.shape),
    PrintOrderSchema,
  ),
  rerenderProof: rpc('orders', 'orders.print.rerender-proof', ['print'], OrderRef, PrintOrderSchema),
  packingSlip: rpc('orders', 'orders.print.packing-slip', ['print'], OrderRef, FileSchema),
  /** The staff console's read view of the orders whose proof render failed (after its retries), newest first. */
  staffFailedProofs: rpc('orders', 'orders.staff.failed-proofs', ['staff'], PageRequestSchema, PrintQueueSchema),
  /** Staff render a failed proof again (support, when the print team is not there): the same rule as the print team's. */
  staffRerenderProof: rpc('orders', 'orders.staff.rerender-proof', ['staff'], OrderRef, PrintOrderSchema),

  listPlans: rpc('payments', 'payments.plan.list', 'public', None, PlanListSchema),
  /** The signed PayFast request for one of the caller's own orders that still awaits payment. */
  startOrderPayment: rpc('payments', 'payments.order-payment.start', 'account', OrderRef, PaymentRedirectSchema),
  /**
   * The special offer: the signed PayFast subscription request for one of the caller's own orders of specials only
   * (the order total now, then DigiGold monthly from a year out: the included months start when the payment completes).
   */
  startSpecialPayment: rpc('payments', 'payments.special-payment.start', 'account', OrderRef, PaymentRedirectSchema),
  /** The signed PayFast subscription request for a paid tier, billed monthly from today. */
  startMembership: rpc('payments', 'payments.membership.start', MembershipBuyers, StartMembershipSchema, PaymentRedirectSchema),
  /** Cancels at PayFast; the tier stays until the end of the paid period. */
  cancelMembership: rpc('payments', 'payments.membership.cancel', 'account', None, BillingSchema),
  /** Changes an active subscription between DigiSilver and DigiGold at PayFast, from the next billing date on. */
  changeMembership: rpc('payments', 'payments.membership.change', MembershipBuyers, StartMembershipSchema, BillingSchema),
  getBilling: rpc('payments', 'payments.billing.get', 'account', None, BillingSchema),
  /** The owner's payments, newest first, a page at a time. */
  listPayments: rpc('payments', 'payments.payment.list', 'account', PageRequestSchema, PaymentHistorySchema),
  /** PayFast's notification, passed on as received: kept raw, answered at once, checked and applied after. */
  receiveItn: rpc('payments', 'payments.itn.receive', 'public', ItnReceiptSchema, z.object({ received: z.literal(true) })),

  // The staff console (role staff): `accountId` in a body names the customer acted on; the staff member is meta.userId.
  staffFindAccounts: rpc('identity', 'identity.account.find', ['staff'], StaffSearchPageSchema, StaffSearchResultSchema),
  staffGetAccount: rpc('identity', 'identity.account.inspect', ['staff'], StaffAccountRef, StaffIdentityViewSchema),
  /** A page of the account's audited role changes, newest first (the console merges it with profiles' page). */
  staffAccountAudit: rpc('identity', 'identity.account-audit.list', ['staff'], StaffAuditRequestSchema, StaffAuditPageSchema),
  staffSetRole: rpc('identity', 'identity.role.set', ['staff'], StaffAccountRef.extend(SetRoleSchema.shape), StaffIdentityViewSchema),
  /** Takes a print or staff role away (the account becomes a user; its sessions lose the role through the role change). */
  staffRevokeRole: rpc(
    'identity',
    'identity.role.revoke',
    ['staff'],
    StaffAccountRef.extend(RevokeRoleSchema.shape),
    StaffIdentityViewSchema,
  ),
  /** Null when the account has no profile (not yet created from its registration, or deleted). */
  staffGetProfile: rpc('profiles', 'profiles.staff-view.get', ['staff'], StaffAccountRef, StaffProfileViewSchema.nullable()),
  /** A page of the profile's audited changes (partner, vanity paths, business), newest first; none without a profile. */
  staffProfileAudit: rpc('profiles', 'profiles.staff-audit.list', ['staff'], StaffAuditRequestSchema, StaffAuditPageSchema),
  staffSetPartner: rpc(
    'profiles',
    'profiles.partner.set',
    ['staff'],
    StaffAccountRef.extend(SetPartnerSchema.shape),
    StaffProfileViewSchema,
  ),
  staffSetVanityPaths: rpc(
    'profiles',
    'profiles.vanity-paths.set',
    ['staff'],
    StaffAccountRef.extend(SetVanityPathsSchema.shape),
    StaffProfileViewSchema,
  ),
  staffSetBusiness: rpc(
    'profiles',
    'profiles.business.set',
    ['staff'],
    StaffAccountRef.extend(SetBusinessSchema.shape),
    StaffProfileViewSchema,
  ),
  staffRefundsDue: rpc('payments', 'payments.staff.refunds-due', ['staff'], PageRequestSchema, StaffRefundsSchema),
  /**
   * Creates team reps' accounts for the signed-in leader, who confirms with their own password (and stays signed in):
   * all of them or none. With `dryRun` it only checks (username and email free, also within the batch). Field errors
   * are named `reps.<row>.<field>`. Called by the teams service on the leader's behalf.
   */
  createRepAccounts: rpc(
    'identity',
    'identity.rep-accounts.create',
    ['teamLeader'],
    z.object({
      leaderPassword: z.string().max(1024),
      dryRun: z.boolean(),
      reps: z
        .array(
          z.object({
            /**
             * The account's id, chosen by the caller (teams records it as pending first): the same request again (a
             * retry after a lost answer) returns the accounts already made instead of creating any twice.
             */
            accountId: z.uuid().optional(),
            username: z.string(),
            firstName: z.string(),
            lastName: z.string(),
            email: z.string(),
            password: z.string(),
          }),
        )
        .min(1)
        .max(200),
    }),
    RepAccountsSchema,
  ),
  /**
   * The rep accounts among these ids (team members made by createRepAccounts). For the teams service, which completes
   * an addition cut short between identity creating the accounts and teams recording them.
   */
  findRepAccounts: rpc(
    'identity',
    'identity.rep-accounts.find',
    'service',
    z.object({ accountIds: z.array(z.uuid()).min(1).max(200) }),
    RepAccountsSchema,
  ),
  /** A leader changed a rep's account fields (the teams service checked the rep is theirs). Team members only. */
  updateRepAccount: rpc(
    'identity',
    'identity.rep-account.update',
    'service',
    z.object({ accountId: z.uuid(), username: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() }),
    SessionUserSchema,
  ),
  /**
   * Creates one rep's account for a team leader without the leader's password: a SCIM provisioning call, whose
   * bearer token the teams service checked (the token stands for the leader). Otherwise as createRepAccounts.
   */
  provisionRepAccounts: rpc(
    'identity',
    'identity.rep-accounts.provision',
    'service',
    z.object({
      leaderAccountId: z.uuid(),
      reps: z
        .array(
          z.object({
            accountId: z.uuid(),
            username: z.string(),
            firstName: z.string(),
            lastName: z.string(),
            email: z.string(),
            password: z.literal(''),
          }),
        )
        .length(1),
      /**
       * The team's removed reps with this email (SCIM: a deleted user no longer counts for uniqueness, RFC 7644
       * section 3.6): their address is freed first, so a user deleted and created again is made again.
       */
      releaseAccountIds: z.array(z.uuid()).max(20).optional(),
    }),
    RepAccountsSchema,
  ),
  /** A rep deactivated by SCIM comes back: the account can sign in again (409 when its username was released). */
  enableRepAccount: rpc('identity', 'identity.rep-account.enable', 'service', AccountRef, z.object({ enabled: z.literal(true) })),
  /** A rep left the team: the account can no longer sign in; its username is freed after the grace period. */
  disableRepAccount: rpc('identity', 'identity.rep-account.disable', 'service', AccountRef, z.object({ disabled: z.literal(true) })),

  /**
   * A new rep's welcome link: a password-reset token (the same single-use mechanism) that lives 7 days. Team members
   * only; null otherwise. For the notifications service acting on `teams.member.added`.
   */
  issueWelcomeToken: rpc('identity', 'identity.welcome.issue', 'service', TokenToIssue, IssuedToken.nullable()),

  listTeam: rpc('teams', 'teams.team.list', ['teamLeader'], PageRequestSchema, TeamSchema),
  addRep: rpc('teams', 'teams.rep.add', ['teamLeader'], AddRepRequestSchema, RepSchema),
  importReps: rpc('teams', 'teams.reps.import', ['teamLeader'], ImportRepsRequestSchema, ImportRepsResultSchema),
  updateRep: rpc('teams', 'teams.rep.update', ['teamLeader'], RepFieldsSchema.extend({ accountId: z.uuid() }), RepSchema),
  removeRep: rpc('teams', 'teams.rep.remove', ['teamLeader'], RepRefSchema, z.object({ removed: z.literal(true) })),
  /** The leader's company sign-in (single sign-on): the settings, the client secret only as the gateway's ciphertext. */
  getSsoSettings: rpc('teams', 'teams.sso.get', ['teamLeader'], None, StoredSsoSettingsSchema),
  saveSsoSettings: rpc('teams', 'teams.sso.save', ['teamLeader'], StoreSsoSettingsSchema, StoredSsoSettingsSchema),
  removeSsoSettings: rpc('teams', 'teams.sso.remove', ['teamLeader'], None, z.object({ removed: z.literal(true) })),
  /**
   * The login page's way in: the team whose provider serves an email's domain (or the team of a team link), with the
   * secret as ciphertext only the gateway can read; 404 when there is none. `public` (nobody is signed in yet): of
   * the bus users only the gateway may publish it, and only its SSO flow does.
   */
  findSsoProvider: rpc('teams', 'teams.sso-provider.find', 'public', SsoProviderQuerySchema, SsoProviderSchema),
  /**
   * Which team's provider may sign this account in (the team of a current rep, or the leader's own), and whether its
   * password sign-in is refused (a rep of a team that requires SSO). Asked by the gateway after the provider proved
   * an email, and after a right password of a team member, before any session exists (so `public`, gateway only).
   */
  ssoAccountState: rpc('teams', 'teams.sso-account.state', 'public', AccountRef, SsoAccountStateSchema),
  /** SCIM provisioning (issue 27): the leader's bearer token, kept as its SHA-256 only (the gateway hashes it). */
  getScimToken: rpc('teams', 'teams.scim-token.get', ['teamLeader'], None, ScimTokenStateSchema),
  storeScimToken: rpc('teams', 'teams.scim-token.store', ['teamLeader'], StoreScimTokenSchema, ScimTokenStateSchema),
  revokeScimToken: rpc('teams', 'teams.scim-token.revoke', ['teamLeader'], None, z.object({ revoked: z.literal(true) })),
  listScimAudit: rpc('teams', 'teams.scim-audit.list', ['teamLeader'], PageRequestSchema, ScimAuditSchema),
  /**
   * The SCIM service's calls, asked by the gateway with the hash of the bearer token, which names the team: 401 for
   * a hash no team has. `public` (no session stands behind them): only the gateway may publish them.
   */
  scimCreateUser: rpc('teams', 'teams.scim.user.create', 'public', ScimCreateUserSchema, ScimUserResultSchema),
  scimGetUser: rpc('teams', 'teams.scim.user.get', 'public', ScimUserRefSchema, ScimUserResultSchema),
  scimListUsers: rpc('teams', 'teams.scim.users.list', 'public', ScimListUsersSchema, ScimUserListSchema),
  scimReplaceUser: rpc('teams', 'teams.scim.user.replace', 'public', ScimReplaceUserSchema, ScimUserResultSchema),
  scimPatchUser: rpc('teams', 'teams.scim.user.patch', 'public', ScimPatchUserSchema, ScimUserResultSchema),
  scimDeleteUser: rpc('teams', 'teams.scim.user.delete', 'public', ScimUserRefSchema, ScimUserResultSchema),
  scimRefused: rpc('teams', 'teams.scim.refused', 'public', ScimRefusedSchema, z.object({ recorded: z.literal(true) })),
  /** The staff console: a team's company sign-in and SCIM state, and turning either off (staff only). */
  staffTeamSignIn: rpc('teams', 'teams.staff.sign-in.get', ['staff'], StaffAccountRef, TeamSignInStateSchema),
  staffTeamSignInOff: rpc(
    'teams',
    'teams.staff.sign-in.off',
    ['staff'],
    StaffAccountRef.extend(TeamSignInOffFields),
    TeamSignInStateSchema,
  ),
  /** The leads of the leader's reps, and of reps who left the team (kept with the team). */
  listTeamLeads: rpc('profiles', 'profiles.team-leads.list', ['teamLeader'], PageRequestSchema, LeadListSchema),
  /** The leader view: the analytics of the leader's current reps (profiles' own record of who shows whose business). */
  /** A page of the leader view's numbers: the reps named (a page of teams' list), and the team's totals. */
  getTeamAnalytics: rpc('profiles', 'profiles.team-analytics.get', ['teamLeader'], TeamAnalyticsRequestSchema, TeamAnalyticsNumbersSchema),
} as const;

export const rpcEnvelope = <T extends z.ZodType>(body: T) => z.object({ meta: RequestMetaSchema, body });

/**
 * Fire-and-forget notices over core NATS: nobody waits for them and losing one now and then is fine (page-view
 * counts). Anything that must not be lost is an event through an outbox instead.
 */
export const Notices = {
  /** Analytics counted in the gateway (views by source and card, Save to Contact, clicks, unique visitors), in batches. */
  analyticsRecorded: {
    subject: 'profiles.analytics.record',
    owner: 'profiles' as ServiceName,
    data: AnalyticsBatchSchema,
  },
} as const;

/** Each service answers this with its health report. */
export const healthSubject = (service: ServiceName): string => `${service}.health.check`;
export const HealthRpcResponse = HealthReportSchema;
