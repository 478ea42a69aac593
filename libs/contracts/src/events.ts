import { z } from 'zod';
import { RoleSchema } from './accounts.js';
import { EnquiryReceivedSchema } from './enquiries.js';
import { CardSerialSchema, CheckoutRequestSchema, OrderActorSchema, OrderLineSchema, OrderStatusSchema } from './commerce.js';
import { LeadFieldsSchema, MembershipSchema } from './profiles.js';
import type { ServiceName } from './services.js';

export interface EventDefinition<T extends z.ZodType> {
  /** `<service>.<entity>.<past-tense>` */
  readonly subject: string;
  readonly owner: ServiceName;
  readonly data: T;
}

function event<T extends z.ZodType>(owner: ServiceName, subject: string, data: T): EventDefinition<T> {
  if (!subject.startsWith(`${owner}.`)) throw new Error(`Event subject ${subject} must start with its owner ${owner}`);
  return { subject, owner, data };
}

/** Every domain event, declared once. Published on JetStream through the owner's outbox. */
const at = z.iso.datetime();

export const UserRegisteredSchema = z.object({
  accountId: z.uuid(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: RoleSchema,
  registeredAt: at,
  /** The specials chosen with the sign-up (/registration): orders places the unpaid order for them. */
  specials: CheckoutRequestSchema.shape.items.optional(),
});
export type UserRegistered = z.infer<typeof UserRegisteredSchema>;

/** The most cards one `orders.cards.assigned` names (an order has at most 200; a longer list is sent in parts). */
export const CARDS_PER_ASSIGNED_EVENT = 500;

const OrderEventSchema = z.object({
  orderId: z.uuid(),
  accountId: z.uuid(),
  reference: z.string(),
  lines: z.array(OrderLineSchema),
  totalCents: z.number().int().min(0),
  at,
});

const PaymentCompletedSchema = z.object({
  paymentId: z.uuid(),
  accountId: z.uuid(),
  /**
   * What was paid: an order (`orderId`) or a month of a tier (`subscriptionId`). A special's first payment is an
   * order that also names the subscription it started (`subscriptionId`, `tier`, `paidUntil`).
   */
  kind: z.enum(['order', 'subscription']),
  orderId: z.uuid().nullable(),
  subscriptionId: z.uuid().nullable(),
  amountCents: z.number().int().min(0),
  /** PayFast's id of the payment. */
  pfPaymentId: z.string(),
  completedAt: at,
  /** For a subscription: its tier, and until when it is paid now (null for an order, or a subscription that ended). */
  tier: MembershipSchema.nullable(),
  paidUntil: at.nullable(),
  /** True for the payment that started a subscription (its first month): the email says the membership started. */
  startsMembership: z.boolean().optional(),
});

/**
 * The tier an account has now, as payments decides it. `version` grows with every change of the account's
 * membership: a consumer that has seen a higher one ignores a lower one, whatever order they arrive in.
 */
const MembershipChangedSchema = z.object({
  accountId: z.uuid(),
  membership: MembershipSchema,
  /** Paid until then (null for DigiShare). */
  paidUntil: at.nullable(),
  version: z.number().int().min(1),
  changedAt: at,
});

/** Every domain event, declared once. Published on JetStream through the owner's outbox. Never a secret in one. */
export const Events = {
  enquiryReceived: event('orders', 'orders.enquiry.received', EnquiryReceivedSchema),
  userRegistered: event('identity', 'identity.user.registered', UserRegisteredSchema),
  userVerified: event('identity', 'identity.user.verified', z.object({ accountId: z.uuid(), verifiedAt: at })),
  verificationRequested: event('identity', 'identity.verification.requested', z.object({ accountId: z.uuid(), requestedAt: at })),
  passwordResetRequested: event('identity', 'identity.password-reset.requested', z.object({ accountId: z.uuid(), requestedAt: at })),
  passwordChanged: event('identity', 'identity.user.password-changed', z.object({ accountId: z.uuid(), changedAt: at })),
  /**
   * The account is gone. `email` is its address when the account had proved it by following a link sent to it (else
   * null; a leader's or an operator's word proves nothing): the services delete what they keep under that address too
   * (enquiries, the mail log). Events recorded before it was added have none.
   */
  userDeleted: event(
    'identity',
    'identity.user.deleted',
    z.object({ accountId: z.uuid(), deletedAt: at, email: z.string().nullable().default(null) }),
  ),
  /**
   * The account has another role (staff made it a team leader or took a role away; a DigiPlatinum subscription started
   * or ended). `signOut`: the sessions signed in before the change end instead of taking the new role (staff took a
   * print or staff role away: whoever holds such a session signs in again).
   */
  roleChanged: event(
    'identity',
    'identity.user.role-changed',
    z.object({ accountId: z.uuid(), role: RoleSchema, changedAt: at, signOut: z.boolean().default(false) }),
  ),
  orderPlaced: event('orders', 'orders.order.placed', OrderEventSchema),
  orderPaid: event('orders', 'orders.order.paid', OrderEventSchema),
  /** Every move of an order after payment (who, when, note): the owner is emailed each one. */
  orderStateChanged: event(
    'orders',
    'orders.order.state-changed',
    z.object({
      orderId: z.uuid(),
      accountId: z.uuid(),
      reference: z.string(),
      from: OrderStatusSchema.nullable(),
      to: OrderStatusSchema,
      by: OrderActorSchema,
      note: z.string().nullable(),
      courier: z.string().nullable(),
      trackingNumber: z.string().nullable(),
      at,
    }),
  ),
  /**
   * Whose page printed cards open now: each card's serial and the account (the rep a leader assigned it to, else its
   * buyer). Published when a paid order's cards are made and whenever a card is pointed elsewhere (a leader's move, a
   * rep leaving). Profiles keeps it so that views through `?card=` count only for a card of that page; `at` orders
   * them (an older assignment never replaces a newer one).
   */
  cardsAssigned: event(
    'orders',
    'orders.cards.assigned',
    z.object({
      cards: z
        .array(z.object({ serial: CardSerialSchema, accountId: z.uuid() }))
        .min(1)
        .max(CARDS_PER_ASSIGNED_EVENT),
      at,
    }),
  ),
  /** A print proof was rendered (the first, or again after a profile change). */
  proofReady: event(
    'orders',
    'orders.proof.ready',
    z.object({ orderId: z.uuid(), accountId: z.uuid(), reference: z.string(), version: z.number().int(), at }),
  ),
  paymentCompleted: event('payments', 'payments.payment.completed', PaymentCompletedSchema),
  paymentFailed: event(
    'payments',
    'payments.payment.failed',
    z.object({
      paymentId: z.uuid(),
      accountId: z.uuid(),
      subscriptionId: z.uuid(),
      tier: MembershipSchema,
      amountCents: z.number().int().min(0),
      failedAt: at,
      /** The tier stays until then. */
      graceUntil: at,
    }),
  ),
  membershipChanged: event('payments', 'payments.membership.changed', MembershipChangedSchema),
  /** A paid subscription was cancelled (by its owner under Billing, or at PayFast): the tier stays until `endsAt`. */
  subscriptionCancelled: event(
    'payments',
    'payments.subscription.cancelled',
    z.object({
      subscriptionId: z.uuid(),
      accountId: z.uuid(),
      tier: MembershipSchema,
      monthlyPriceCents: z.number().int().min(0),
      /** The end of the paid month: the tier lapses then (null when nothing was paid). */
      endsAt: at.nullable(),
      cancelledAt: at,
      by: z.enum(['owner', 'payfast']),
    }),
  ),
  /**
   * Someone tried to register with the email of an existing account. The stranger sees the usual verify-email page;
   * the owner gets an email about it (decisions.md). Carries no secret and nothing the stranger typed.
   */
  registrationAttempted: event('identity', 'identity.registration.attempted', z.object({ accountId: z.uuid(), attemptedAt: at })),
  profileUpdated: event('profiles', 'profiles.profile.updated', z.object({ accountId: z.uuid(), username: z.string(), updatedAt: at })),
  profileDeleted: event('profiles', 'profiles.profile.deleted', z.object({ accountId: z.uuid(), username: z.string() })),
  /**
   * A team leader gave every rep their wallet pass: one event per rep, for notifications to email them the links to
   * the wallets the deployment offers (decision 11: the links open the rep's own dashboard, signed in).
   */
  walletPassOffered: event(
    'profiles',
    'profiles.wallet-pass.offered',
    z.object({
      accountId: z.uuid(),
      email: z.string(),
      firstName: z.string(),
      leaderName: z.string(),
      wallets: z.object({ apple: z.boolean(), google: z.boolean() }),
      offeredAt: at,
    }),
  ),
  leadCaptured: event(
    'profiles',
    'profiles.lead.captured',
    LeadFieldsSchema.omit({ id: true }).extend({
      leadId: z.uuid(),
      accountId: z.uuid(),
      ownerEmail: z.string(),
      ownerFirstName: z.string(),
      /** Exchange Contact: the visitor asked for the owner's vCard by email. */
      sendCard: z.boolean().optional(),
      /** Where the owner's page is (the vCard's URL). */
      ownerUsername: z.string().optional(),
    }),
  ),
  /** The owner asked for a new email: notifications sends the link to the new address (the token is made there). */
  emailChangeRequested: event(
    'identity',
    'identity.email-change.requested',
    z.object({ accountId: z.uuid(), newEmail: z.string(), requestedAt: at }),
  ),
  /**
   * Someone asked to move their account to the address of this account (`accountId`): nothing changed; the owner of
   * the address is told (the asker got the usual answer). Carries nothing the asker typed.
   */
  emailChangeAttempted: event('identity', 'identity.email-change.attempted', z.object({ accountId: z.uuid(), attemptedAt: at })),
  /** The link was used: the account's email is the new one; the old address gets a notice (without any link). */
  emailChanged: event(
    'identity',
    'identity.user.email-changed',
    z.object({ accountId: z.uuid(), oldEmail: z.string(), newEmail: z.string(), changedAt: at }),
  ),
  /** A leader changed a rep's username, names or email, or the owner their names or email (identity's fields). */
  userChanged: event(
    'identity',
    'identity.user.changed',
    z.object({ accountId: z.uuid(), username: z.string(), email: z.string(), firstName: z.string(), lastName: z.string(), changedAt: at }),
  ),
  /** A rep joined a leader's team: their profile shows the leader's business (businessId) and shares its tier. */
  teamMemberAdded: event(
    'teams',
    'teams.member.added',
    z.object({ leaderAccountId: z.uuid(), memberAccountId: z.uuid(), username: z.string(), tel: z.string(), addedAt: at }),
  ),
  /**
   * The leader changed the rep's phone, or the company's identity provider the rep's job title (SCIM `title`, shown as
   * the card's title; absent: unchanged, empty: none).
   */
  teamMemberUpdated: event(
    'teams',
    'teams.member.updated',
    z.object({
      leaderAccountId: z.uuid(),
      memberAccountId: z.uuid(),
      tel: z.string(),
      title: z.string().max(120).optional(),
      updatedAt: at,
    }),
  ),
  /** A rep left: their leads stay with the leader, their page goes, they can no longer sign in. */
  teamMemberRemoved: event(
    'teams',
    'teams.member.removed',
    z.object({ leaderAccountId: z.uuid(), memberAccountId: z.uuid(), username: z.string(), removedAt: at }),
  ),
  /**
   * The company's identity provider deactivated the rep (SCIM `active: false`): they can no longer sign in and their
   * page is hidden, but they stay in the team (leads, card, settings) until reactivated or removed.
   */
  teamMemberSuspended: event(
    'teams',
    'teams.member.suspended',
    z.object({ leaderAccountId: z.uuid(), memberAccountId: z.uuid(), suspendedAt: at }),
  ),
  /** The provider reactivated the rep: they sign in again and their page is back. */
  teamMemberReinstated: event(
    'teams',
    'teams.member.reinstated',
    z.object({ leaderAccountId: z.uuid(), memberAccountId: z.uuid(), reinstatedAt: at }),
  ),
} as const;

export type EventName = keyof typeof Events;
export type OrderEvent = z.infer<typeof OrderEventSchema>;
export type PaymentCompleted = z.infer<typeof PaymentCompletedSchema>;
export type MembershipChanged = z.infer<typeof MembershipChangedSchema>;
export const AllEvents: readonly EventDefinition<z.ZodType>[] = Object.values(Events);

/** What travels on the wire: the id is the outbox row id, also sent as `Nats-Msg-Id`. */
export const EventEnvelopeSchema = z.object({
  id: z.uuid(),
  type: z.string(),
  occurredAt: z.iso.datetime(),
  data: z.unknown(),
});
export type EventEnvelope<T = unknown> = Omit<z.infer<typeof EventEnvelopeSchema>, 'data'> & { data: T };

/** One stream per publishing service, holding exactly the event subjects it owns. */
export function streamFor(owner: ServiceName): { name: string; subjects: string[] } {
  return {
    name: `EVENTS_${owner.toUpperCase()}`,
    subjects: AllEvents.filter((e) => e.owner === owner).map((e) => e.subject),
  };
}

/**
 * Where a service (or the gateway) puts the events its consumers gave up on (after `max_deliver` deliveries, or a payload that can
 * never be handled): one stream per consuming service, which only that service declares and writes, read by an
 * operator. The subject keeps the original one: `deadletter.<service>.<event subject>`.
 */
export function deadLetterStreamFor(service: ServiceName | 'gateway'): {
  name: string;
  subjects: string[];
  subjectFor(eventSubject: string): string;
} {
  return {
    name: `DEADLETTER_${service.toUpperCase()}`,
    subjects: [`deadletter.${service}.>`],
    subjectFor: (eventSubject) => `deadletter.${service}.${eventSubject}`,
  };
}

/** A durable consumer's name, unique per consuming app and event: `<app>--<subject with dashes>`. */
export const durableName = (consumer: string, subject: string): string => `${consumer}--${subject.replaceAll('.', '-')}`;
