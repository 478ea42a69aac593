import { z } from 'zod';
import { EnquiryReceivedSchema } from './enquiries.js';
import { OrderActorSchema, OrderLineSchema, OrderStatusSchema } from './commerce.js';
import { LeadFieldsSchema, MembershipSchema } from './profiles.js';

/** BullMQ queue names. Never rename one: jobs in flight use them. */
export const QueueName = {
  Email: 'email',
  ProofRender: 'proof-render',
  /** CRM hand-off: one job per lead (or test) posting it to the owner's webhook, retried for about 24 h. */
  CrmWebhook: 'crm-webhook',
  /** Apple Wallet: one job per device and pass version, telling the device (APNs) that its pass changed. */
  ApplePassPush: 'apple-pass-push',
  /** Google Wallet: one job per pass object and version, writing it (or its expiry) through the Wallet REST API. */
  GoogleWalletSync: 'google-wallet-sync',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

/** One job name per kind of email; the payload says everything the template needs. */
const tokenLink = {
  sourceEventId: z.uuid(),
  to: z.email(),
  firstName: z.string(),
  /** The whole link, token included: such jobs are removed from Redis as soon as they are done. */
  link: z.url(),
  expiresAt: z.iso.datetime(),
};

export const EmailJobSchema = z.discriminatedUnion('template', [
  z.object({
    template: z.literal('enquiry-received'),
    sourceEventId: z.uuid(),
    enquiry: EnquiryReceivedSchema,
  }),
  z.object({ template: z.literal('verify-email'), ...tokenLink }),
  z.object({
    template: z.literal('lead-captured'),
    sourceEventId: z.uuid(),
    to: z.email(),
    ownerFirstName: z.string(),
    lead: LeadFieldsSchema.omit({ id: true }),
  }),
  z.object({ template: z.literal('reset-password'), ...tokenLink }),
  /** The order is paid: the receipt, and what happens next (the print proof). */
  z.object({
    template: z.literal('order-receipt'),
    sourceEventId: z.uuid(),
    to: z.email(),
    firstName: z.string(),
    reference: z.string(),
    lines: z.array(OrderLineSchema),
    totalCents: z.number().int().min(0),
    paidAt: z.iso.datetime(),
  }),
  /** A month of a tier is paid (the first, or a recurring one): the receipt and the next billing date. */
  z.object({
    template: z.literal('membership-receipt'),
    sourceEventId: z.uuid(),
    to: z.email(),
    firstName: z.string(),
    tier: MembershipSchema,
    amountCents: z.number().int().min(0),
    paidAt: z.iso.datetime(),
    paidUntil: z.iso.datetime().nullable(),
    /** The first month of a subscription: the email says the membership has started. */
    started: z.boolean().optional(),
  }),
  /** The paid tier ended (cancelled and run out, or unpaid after the grace): the profile is on DigiShare again. */
  z.object({ template: z.literal('membership-ended'), sourceEventId: z.uuid(), to: z.email(), firstName: z.string() }),
  /** A recurring payment failed: the tier stays until `graceUntil`. */
  z.object({
    template: z.literal('payment-failed'),
    sourceEventId: z.uuid(),
    to: z.email(),
    firstName: z.string(),
    tier: MembershipSchema,
    amountCents: z.number().int().min(0),
    graceUntil: z.iso.datetime(),
  }),
  /** The owner (or PayFast) cancelled a paid tier: no further charges; the tier stays until `endsAt`. */
  z.object({
    template: z.literal('membership-cancelled'),
    sourceEventId: z.uuid(),
    to: z.email(),
    firstName: z.string(),
    tier: MembershipSchema,
    /** The last monthly amount charged, in cents. */
    monthlyCents: z.number().int().min(0),
    endsAt: z.iso.datetime().nullable(),
  }),
  /** Someone tried to register with this address: sign in or reset the password; nothing was changed. */
  z.object({
    template: z.literal('registration-attempted'),
    sourceEventId: z.uuid(),
    to: z.email(),
    firstName: z.string(),
    signInLink: z.string(),
  }),
  /** A team leader gave every rep their wallet pass: the links (to the rep's dashboard) of the wallets offered. */
  z.object({
    template: z.literal('wallet-pass-offer'),
    sourceEventId: z.uuid(),
    to: z.email(),
    firstName: z.string(),
    leaderName: z.string(),
    appleLink: z.url().nullable(),
    googleLink: z.url().nullable(),
  }),
  /** "Get your own Profile" on someone's page: the visitor's welcome, with a sign-up link holding their details. */
  z.object({
    template: z.literal('visitor-welcome'),
    sourceEventId: z.uuid(),
    to: z.email(),
    firstName: z.string(),
    ownerName: z.string(),
    link: z.url(),
  }),
  /** An order moved on (proof ready, approved, printing, shipped with tracking, delivered, cancelled, refunded). */
  z.object({
    template: z.literal('order-state-changed'),
    sourceEventId: z.uuid(),
    to: z.email(),
    firstName: z.string(),
    reference: z.string(),
    from: OrderStatusSchema.nullable(),
    status: OrderStatusSchema,
    by: OrderActorSchema,
    note: z.string().nullable(),
    courier: z.string().nullable(),
    trackingNumber: z.string().nullable(),
    at: z.iso.datetime(),
  }),
  /** The owner asked for this new address: the link that makes it the account's email (sent to the new address). */
  z.object({ template: z.literal('confirm-email-change'), ...tokenLink }),
  /** The account's email changed to `newEmail`: a notice to the old address, with no link in it. */
  z.object({
    template: z.literal('email-changed'),
    sourceEventId: z.uuid(),
    to: z.email(),
    firstName: z.string(),
    newEmail: z.string(),
    signInLink: z.string(),
  }),
  /** Someone asked to move another account to this address: nothing changed (the account here is untouched). */
  z.object({
    template: z.literal('email-change-attempted'),
    sourceEventId: z.uuid(),
    to: z.email(),
    firstName: z.string(),
    signInLink: z.string(),
  }),
  /**
   * Exchange Contact, when the visitor asked for the owner's card: the same vCard 3.0 as Save to Contact, attached as
   * `{name}.vcf`.
   */
  z.object({
    template: z.literal('exchange-card'),
    sourceEventId: z.uuid(),
    to: z.email(),
    firstName: z.string(),
    ownerName: z.string(),
    profileUrl: z.url(),
    vcard: z.object({ fileName: z.string().max(200), content: z.string().max(200_000) }),
  }),
  /** A leader added this rep: a welcome, with a link to choose their own password (a password-reset token). */
  z.object({ template: z.literal('rep-welcome'), leaderName: z.string(), ...tokenLink }),
]);
export type EmailJob = z.infer<typeof EmailJobSchema>;
export type EmailTemplate = EmailJob['template'];

/** Retry policy for every job, set in one place. */
export const DefaultJobOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { age: 14 * 24 * 3600, count: 50_000 },
  removeOnFail: { age: 30 * 24 * 3600 },
} as const;

/** Templates whose job carries a secret link: the job is deleted from Redis once sent. */
export const SECRET_TEMPLATES: ReadonlySet<EmailTemplate> = new Set<EmailTemplate>([
  'verify-email',
  'reset-password',
  'rep-welcome',
  'confirm-email-change',
]);

/** BullMQ custom ids may not contain ':'; derive them from the event that caused the job. */
export const jobIdFor = (template: EmailTemplate, sourceEventId: string): string => `${template}-${sourceEventId}`;

/** A `proof-render` job: render the order's proof (again). One job per order; the first cause asked is named. */
export const ProofRenderJobSchema = z.object({
  orderId: z.uuid(),
  /** What asked for it: the payment, a profile change, the print team, or a render owed queued again (Redis was away). */
  reason: z.enum(['paid', 'profile-updated', 'requested', 'requeued']),
  /** The event or request behind it, for the job id. */
  sourceId: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/),
});
export type ProofRenderJob = z.infer<typeof ProofRenderJobSchema>;

/**
 * Retry policy of proof renders: fewer, quicker attempts than emails (the consoles show a failure soon). One job per
 * order (its id is the order's), removed once done or failed for good: the proof row keeps the outcome, and the next
 * render of that order can be queued.
 */
export const ProofRenderJobOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: true,
  removeOnFail: true,
} as const;

/**
 * An `apple-pass-push` job: tell one device (its APNs push token) that a pass changed, so that it asks for the
 * serials updated since its last tag and fetches the new pass. One job per registration and pass version (its id
 * says both), so a redelivered event queues nothing twice.
 */
export const ApplePassPushJobSchema = z.object({
  serialNumber: z.string().regex(/^[A-Za-z0-9_-]{24}$/),
  /** The pass's version the push is for (its update tag): a later version's push makes an earlier one moot. */
  version: z.number().int().min(0),
  registrationId: z.uuid(),
  pushToken: z.string().regex(/^[0-9A-Fa-f]{16,200}$/),
});
export type ApplePassPushJob = z.infer<typeof ApplePassPushJobSchema>;

/** Retry policy of pass pushes: APNs busy or unreachable is retried for about an hour; removed once done. */
export const ApplePassPushJobOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

/**
 * A `google-wallet-sync` job: write one Google Wallet pass object as it is now (or expired, its account gone) through
 * the Wallet REST API. One job per object and version (its id says both): a redelivered event queues nothing twice.
 */
export const GoogleWalletSyncJobSchema = z.object({
  /** The object's own part of its id (`<issuer id>.<suffix>`): random, saying nothing about the account. */
  objectSuffix: z.string().regex(/^[A-Za-z0-9_-]{24}$/),
  version: z.number().int().min(0),
});
export type GoogleWalletSyncJob = z.infer<typeof GoogleWalletSyncJobSchema>;

/** Retry policy of Google Wallet writes: Google busy, unreachable or refusing the token is retried for about an hour. */
export const GoogleWalletSyncJobOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

export const googleWalletSyncJobId = (job: GoogleWalletSyncJob): string => `google-wallet-${job.objectSuffix}-${job.version}`;

export const applePassPushJobId = (job: Pick<ApplePassPushJob, 'serialNumber' | 'version' | 'registrationId'>): string =>
  `apple-pass-${job.serialNumber}-${job.version}-${job.registrationId}`;
