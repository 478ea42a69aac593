import { z } from 'zod';
import { RegisterRequestSchema } from './accounts.js';
import { CardColourSchema, CatalogueKind, Cents, MAX_QUANTITY } from './catalogue.js';
import { MembershipSchema } from './profiles.js';
import { pageOf } from './paging.js';

// Orders, payments and memberships (spec sections 1, 3, 4, 7, 9; decisions.md). Money is whole cents everywhere;
// prices come from the catalogue and the plans on the server, never from the browser.

/** The tiers paid by the month through PayFast. DigiShare is free; DigiPlatinum is priced on request. */
export const PaidTiers = ['DigiSilver', 'DigiGold'] as const;
export const PaidTierSchema = z.enum(PaidTiers, { error: 'Please choose DigiSilver or DigiGold.' });
export type PaidTier = z.infer<typeof PaidTierSchema>;

export const PlanSchema = z
  .object({
    tier: MembershipSchema,
    /** Per month, in cents; null for "price on request" (DigiPlatinum). */
    monthlyPriceCents: Cents.nullable(),
  })
  .meta({ id: 'Plan' });
export const PlanListSchema = z.object({ plans: z.array(PlanSchema) }).meta({ id: 'PlanList' });
export type Plan = z.infer<typeof PlanSchema>;
export type PlanList = z.infer<typeof PlanListSchema>;

// ---------------------------------------------------------------------------------------------------- orders

/** What the basket sends at checkout: ids, colours and quantities only (the server prices them). */
export const CheckoutRequestSchema = z
  .object({
    items: z
      .array(
        z.object({
          id: z.string().regex(/^[a-z0-9-]{1,64}$/, 'That item is not in the shop.'),
          /**
           * One of the item's `colors` (the server checks it against the catalogue: 400 with a field error on
           * `items.N.colour` otherwise). Left out by baskets kept from before colours were chosen: the item's first
           * colour.
           */
          colour: CardColourSchema.optional(),
          quantity: z
            .number({ error: 'Please choose a quantity.' })
            .int('Please choose a whole number.')
            .min(1, 'At least one, please.')
            .max(MAX_QUANTITY, `At most ${MAX_QUANTITY} of one card per order; for more, please contact us.`),
        }),
      )
      .min(1, 'No Accessories selected.')
      .max(10, 'At most 10 different items per order.')
      .refine(
        (items) => new Set(items.map((i) => `${i.id}:${i.colour ?? ''}`)).size === items.length,
        'Each item and colour once, with its quantity.',
      ),
  })
  .meta({ id: 'CheckoutRequest' });
export type CheckoutRequest = z.infer<typeof CheckoutRequestSchema>;

export const OrderStatuses = [
  'awaiting-payment',
  'paid',
  'cancelled',
  // Printing (issue 10): the proof, the owner's approval, the print team's steps, delivery; refunded last.
  'proof-ready',
  'changes-requested',
  'approved',
  'printing',
  'nfc-encoded',
  'shipped',
  'delivered',
  'refunded',
] as const;
export const OrderStatusSchema = z.enum(OrderStatuses);
export type OrderStatus = z.infer<typeof OrderStatusSchema>;

export const OrderLineSchema = z.object({
  itemId: z.string(),
  /** The item's catalogue kind when the order was placed (lines of messages from before it: an accessory). */
  kind: CatalogueKind.default('accessory'),
  name: z.string(),
  quantity: z.number().int().min(1),
  unitPriceCents: Cents,
  lineTotalCents: Cents,
  /** Months of DigiGold the item includes (specials), per item. */
  includedGoldMonths: z.number().int().min(0),
  /** The card's colour, one of the item's `colors` (empty only in a message sent before colours were chosen). */
  colour: z.string().default(''),
});
export type OrderLine = z.infer<typeof OrderLineSchema>;

export const OrderSchema = z
  .object({
    id: z.uuid(),
    /** Ours, short and readable (on the receipt, and PayFast's m_payment_id): e.g. DC-7K3M9Q. */
    reference: z.string(),
    status: OrderStatusSchema,
    lines: z.array(OrderLineSchema),
    totalCents: Cents,
    createdAt: z.iso.datetime(),
    paidAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof OrderSchema>;
/** A page of the owner's orders, newest first. */
export const OrderListSchema = pageOf('orders', OrderSchema).meta({ id: 'OrderList' });
export type OrderList = z.infer<typeof OrderListSchema>;

/** Where the browser goes to pay: PayFast's process page with the signed request in its query string. */
export const PaymentRedirectSchema = z.object({ redirectUrl: z.url() }).meta({ id: 'PaymentRedirect' });
export type PaymentRedirect = z.infer<typeof PaymentRedirectSchema>;

export const CheckoutResponseSchema = z.object({ order: OrderSchema, redirectUrl: z.url() }).meta({ id: 'CheckoutResponse' });
export type CheckoutResponse = z.infer<typeof CheckoutResponseSchema>;

/**
 * The special offer's sign-up (/registration): a new account (null when the caller is signed in already) and the
 * specials it buys. Only specials belong here (a card plus months of DigiGold); accessories are bought from the basket.
 */
export const SpecialRegistrationRequestSchema = z
  .object({
    account: RegisterRequestSchema.nullable(),
    items: CheckoutRequestSchema.shape.items,
  })
  .meta({ id: 'SpecialRegistrationRequest' });
export type SpecialRegistrationRequest = z.infer<typeof SpecialRegistrationRequestSchema>;

/**
 * identity's sign-up command: the form's fields and, from the special offer, the specials the new account buys.
 * identity passes them on in `identity.user.registered` for a new account only (an email that has an account gets
 * nothing, as it gets no account), and orders places the unpaid order from that event: the order is on the server
 * whichever browser the verification link is opened in, and is paid from there or from the dashboard.
 */
export const RegisterCommandSchema = RegisterRequestSchema.extend({ specials: CheckoutRequestSchema.shape.items.optional() });
export type RegisterCommand = z.infer<typeof RegisterCommandSchema>;

// -------------------------------------------------------------------------------------------------- payments

export const SubscriptionStatuses = [
  /** Requested; PayFast has not confirmed the first payment yet. */
  'pending',
  'active',
  /** Cancelled by the owner: the tier stays until the end of the paid period. */
  'cancelling',
  /** A recurring payment failed: the tier stays for the grace period. */
  'past-due',
  /** Ended: the tier is DigiShare again. */
  'ended',
] as const;
export const SubscriptionStatusSchema = z.enum(SubscriptionStatuses);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatusSchema>;

export const SubscriptionSchema = z
  .object({
    id: z.uuid(),
    tier: MembershipSchema,
    status: SubscriptionStatusSchema,
    monthlyPriceCents: Cents,
    /** The tier is paid until this moment. */
    paidUntil: z.iso.datetime().nullable(),
    nextBillingDate: z.iso.date().nullable(),
    /** After a failed charge (`past-due`): the tier stays until then. */
    graceUntil: z.iso.datetime().nullable(),
    /** A change of tier asked for: the tier (and its price) from the next billing date on; null when none. */
    nextTier: MembershipSchema.nullable(),
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof SubscriptionSchema>;

export const PaymentRecordSchema = z
  .object({
    id: z.uuid(),
    description: z.string(),
    amountCents: Cents,
    status: z.enum(['complete', 'failed']),
    at: z.iso.datetime(),
  })
  .meta({ id: 'PaymentRecord' });
export type PaymentRecord = z.infer<typeof PaymentRecordSchema>;

/** The owner's payments, newest first, a page at a time (`?cursor=&limit=`): none is left out however many there are. */
export const PaymentHistorySchema = pageOf('payments', PaymentRecordSchema).meta({ id: 'PaymentHistory' });
export type PaymentHistory = z.infer<typeof PaymentHistorySchema>;

/** The tier and subscription; the payments are a list of their own, read a page at a time (`PaymentHistory`). */
export const BillingSchema = z
  .object({
    membership: MembershipSchema,
    subscription: SubscriptionSchema.nullable(),
  })
  .meta({ id: 'Billing' });
export type Billing = z.infer<typeof BillingSchema>;

export const StartMembershipSchema = z.object({ tier: PaidTierSchema }).meta({ id: 'StartMembership' });
export type StartMembership = z.infer<typeof StartMembershipSchema>;

/**
 * An Instant Transaction Notification as PayFast posts it (application/x-www-form-urlencoded), kept as the raw body:
 * its signature is over the fields in the order they were posted, so nothing may re-order or re-encode them.
 */
export const ItnReceiptSchema = z.object({
  rawBody: z.string().max(20_000),
  /** The address the notification came from, as the gateway sees it behind its configured proxies. */
  sourceIp: z.string().max(64).nullable(),
});

// ------------------------------------------------------------------------------------- print and fulfilment

/**
 * Who moves an order from one state to the next, and from where (the orders service enforces this table; the
 * web apps only offer what it allows):
 * - `system`: the proof worker (paid or changes-requested -> proof-ready once a proof is rendered);
 * - `owner`: the buyer (cancel an order before paying it; approve the proof, or ask for changes with a note);
 * - `print`: the print team (printing, NFC encoded, shipped with courier and tracking, delivered; cancel and refund).
 */
export const OrderActors = ['system', 'owner', 'print'] as const;
export const OrderActorSchema = z.enum(OrderActors);
export type OrderActor = z.infer<typeof OrderActorSchema>;

export interface OrderMove {
  readonly from: OrderStatus;
  readonly to: OrderStatus;
  readonly by: readonly OrderActor[];
}

/** Every allowed move; anything else is refused with ORDER_MOVE_NOT_ALLOWED (409). */
export const OrderMoves: readonly OrderMove[] = [
  { from: 'paid', to: 'proof-ready', by: ['system'] },
  { from: 'changes-requested', to: 'proof-ready', by: ['system'] },
  { from: 'proof-ready', to: 'approved', by: ['owner'] },
  { from: 'proof-ready', to: 'changes-requested', by: ['owner'] },
  { from: 'approved', to: 'printing', by: ['print'] },
  { from: 'printing', to: 'nfc-encoded', by: ['print'] },
  { from: 'nfc-encoded', to: 'shipped', by: ['print'] },
  { from: 'shipped', to: 'delivered', by: ['print'] },
  { from: 'awaiting-payment', to: 'cancelled', by: ['owner', 'print'] },
  ...(['paid', 'proof-ready', 'changes-requested', 'approved'] as const).map((from): OrderMove => ({
    from,
    to: 'cancelled',
    by: ['print'],
  })),
  ...(['paid', 'proof-ready', 'changes-requested', 'approved', 'printing', 'cancelled'] as const).map((from): OrderMove => ({
    from,
    to: 'refunded',
    by: ['print'],
  })),
];

/** The moves `actor` may make from `from` (a paid order only may be refunded: the service checks that too). */
export const movesFrom = (from: OrderStatus, actor: OrderActor): OrderStatus[] =>
  OrderMoves.filter((m) => m.from === from && m.by.includes(actor)).map((m) => m.to);

/** The order's print proof: rendered by the `proof-render` worker; a failure shows in both consoles. */
export const ProofStatuses = ['rendering', 'ready', 'failed'] as const;
export const ProofSchema = z
  .object({
    status: z.enum(ProofStatuses),
    /** Grows with every render (a profile change before approval renders it again). */
    version: z.number().int().min(0),
    attempts: z.number().int().min(0),
    /** Why the last attempt failed (null unless `failed`, or a retry is pending after a failure). */
    error: z.string().nullable(),
    renderedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Proof' });
export type Proof = z.infer<typeof ProofSchema>;

export const Materials = ['PVC', 'Bamboo', 'Stainless steel'] as const;
export const MaterialSchema = z.enum(Materials);
export type Material = z.infer<typeof MaterialSchema>;

/** A card's serial: printed on it and behind its NFC chip and QR code (`/c/{serial}`). */
export const CardSerialSchema = z.string().regex(/^[23456789ABCDEFGHJKMNPQRSTVWXYZ]{8}$/, 'That is not a card serial.');
/** An NFC chip's UID as the encoder shows it: 4, 7 or 10 bytes in hex, with or without colons. */
export const NfcUidSchema = z
  .string()
  .trim()
  .transform((v) => v.replace(/[:\s-]/g, '').toUpperCase())
  .pipe(
    z.string().regex(/^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$/, 'An NFC UID is 4, 7 or 10 bytes in hex, e.g. 04:A2:3B:1C:5D:80:00.'),
  );

export const CardSchema = z
  .object({
    serial: z.string(),
    /** What the NFC chip and the printed QR code open. */
    url: z.url(),
    material: MaterialSchema,
    colour: z.string(),
    nfcUid: z.string().nullable(),
    disabled: z.boolean(),
    /** The rep the card points at instead of its buyer (a team leader reassigned it); null: the buyer's own page. */
    assignedTo: z.uuid().nullable().default(null),
  })
  .meta({ id: 'Card' });
export type Card = z.infer<typeof CardSchema>;

export const OrderHistoryEntrySchema = z
  .object({
    from: OrderStatusSchema.nullable(),
    to: OrderStatusSchema,
    by: OrderActorSchema,
    note: z.string().nullable(),
    at: z.iso.datetime(),
  })
  .meta({ id: 'OrderHistoryEntry' });
export type OrderHistoryEntry = z.infer<typeof OrderHistoryEntrySchema>;

export const ShipmentSchema = z.object({ courier: z.string(), trackingNumber: z.string() }).meta({ id: 'Shipment' });

/** An order with what the Orders section and the print console show: proof, cards, history, shipment. */
export const OrderDetailSchema = OrderSchema.extend({
  proof: ProofSchema.nullable(),
  cards: z.array(CardSchema),
  history: z.array(OrderHistoryEntrySchema),
  shipment: ShipmentSchema.nullable(),
}).meta({ id: 'OrderDetail' });
export type OrderDetail = z.infer<typeof OrderDetailSchema>;
/** A page of the owner's orders with their proofs, cards and history, newest first. */
export const OrderDetailListSchema = pageOf('orders', OrderDetailSchema).meta({ id: 'OrderDetailList' });
export type OrderDetailList = z.infer<typeof OrderDetailListSchema>;

/** The print console's view of an order: the buyer's name too (for the packing slip). */
export const PrintOrderSchema = OrderDetailSchema.extend({
  customer: z.object({ name: z.string(), username: z.string() }).nullable(),
}).meta({
  id: 'PrintOrder',
});
export type PrintOrder = z.infer<typeof PrintOrderSchema>;
/** A page of the print console's queue (or the staff console's failed proofs), newest first. */
export const PrintQueueSchema = pageOf('orders', PrintOrderSchema).meta({ id: 'PrintQueue' });
export type PrintQueue = z.infer<typeof PrintQueueSchema>;

const note = z.string().trim().max(1000, 'At most 1000 characters.');

export const RequestChangesSchema = z.object({ note: note.min(1, 'Please say what should change.') }).meta({ id: 'RequestChanges' });
export type RequestChanges = z.infer<typeof RequestChangesSchema>;

/** The print console moves an order on; shipping needs the courier and the tracking number. */
export const MoveOrderSchema = z
  .object({
    to: OrderStatusSchema,
    note: note.optional(),
    courier: z.string().trim().min(1, 'Please name the courier.').max(80).optional(),
    trackingNumber: z.string().trim().min(1, 'Please enter the tracking number.').max(80).optional(),
  })
  .superRefine((move, ctx) => {
    if (move.to !== 'shipped') return;
    if (!move.courier) ctx.addIssue({ code: 'custom', path: ['courier'], message: 'Please name the courier.' });
    if (!move.trackingNumber) ctx.addIssue({ code: 'custom', path: ['trackingNumber'], message: 'Please enter the tracking number.' });
  })
  .meta({ id: 'MoveOrder' });
export type MoveOrder = z.infer<typeof MoveOrderSchema>;

export const RecordCardSchema = z.object({ nfcUid: NfcUidSchema }).meta({ id: 'RecordCard' });
export type RecordCard = z.infer<typeof RecordCardSchema>;

export const SetCardDisabledSchema = z
  .object({ disabled: z.boolean({ error: 'Please say whether the card is disabled.' }) })
  .meta({ id: 'SetCardDisabled' });
export type SetCardDisabled = z.infer<typeof SetCardDisabledSchema>;

/** Whom a team's card points at: one of the leader's current reps, or the leader (the card's own account) again. */
export const AssignCardSchema = z.object({ accountId: z.uuid({ error: 'Please choose a rep.' }) }).meta({ id: 'AssignCard' });
export type AssignCard = z.infer<typeof AssignCardSchema>;
export const CardMessages = { notInTeam: 'That person is not in your team.', assigned: 'Card reassigned.' } as const;

/** A file passed from a service through the gateway (proof PDF/PNG, packing slip). */
export const FileSchema = z.object({ contentType: z.string(), fileName: z.string(), dataBase64: z.string() });
export type FileData = z.infer<typeof FileSchema>;
export const ProofFileKinds = ['pdf', 'png'] as const;

/** Where `/c/{serial}` goes: the assigned profile, or a page that says the card is disabled. */
export const CardTargetSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('active'), username: z.string() }),
  z.object({ status: z.literal('disabled') }),
]);
export type CardTarget = z.infer<typeof CardTargetSchema>;
