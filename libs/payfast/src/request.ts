import { z } from 'zod';
import { pfEncode } from './encode.js';
import { PAYFAST_FIELD_ORDER, signature } from './signature.js';

export const PAYFAST_PROCESS_URL = 'https://www.payfast.co.za/eng/process';
export const PAYFAST_SANDBOX_PROCESS_URL = 'https://sandbox.payfast.co.za/eng/process';

const cents = (what: string) =>
  z
    .number({ error: `${what} must be a number of cents` })
    .int({ error: `${what} must be an integer number of cents` })
    .nonnegative({ error: `${what} must not be negative` })
    .max(Number.MAX_SAFE_INTEGER, { error: `${what} is too large` });

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'billing_date must be YYYY-MM-DD' })
  .refine(
    (s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
    },
    { error: 'billing_date is not a real calendar date' },
  );

const text = (max: number) => z.string().trim().max(max);

export const paymentRequestInputSchema = z
  .object({
    merchantId: z.string().trim().min(1),
    merchantKey: z.string().trim().min(1),
    passphrase: z.string().optional(),
    returnUrl: z.url().optional(),
    cancelUrl: z.url().optional(),
    notifyUrl: z.url().optional(),
    buyer: z
      .object({
        nameFirst: text(100).optional(),
        nameLast: text(100).optional(),
        emailAddress: z.email().max(100).optional(),
        cellNumber: text(100).optional(),
      })
      .optional(),
    mPaymentId: text(100).min(1),
    amountCents: cents('amountCents').min(1, { error: 'amountCents must be at least 1 cent' }),
    itemName: text(100).min(1),
    itemDescription: text(255).optional(),
    customStr: z.array(text(255)).max(5).optional(),
    customInt: z.array(z.number().int()).max(5).optional(),
    emailConfirmation: z.boolean().optional(),
    confirmationAddress: z.email().optional(),
    paymentMethod: z.string().optional(),
    subscription: z
      .object({
        subscriptionType: z.literal(1),
        billingDate: isoDate.optional(),
        recurringAmountCents: cents('recurringAmountCents').min(1, { error: 'recurringAmountCents must be at least 1 cent' }),
        /** 1 daily, 2 weekly, 3 monthly, 4 quarterly, 5 biannually, 6 annually. */
        frequency: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6)]),
        /** 0 = until cancelled. */
        cycles: z.number().int().nonnegative(),
        subscriptionNotifyEmail: z.boolean().optional(),
        subscriptionNotifyWebhook: z.boolean().optional(),
        subscriptionNotifyBuyer: z.boolean().optional(),
      })
      .optional(),
  })
  .refine((v) => v.subscription === undefined || (v.passphrase !== undefined && v.passphrase.trim() !== ''), {
    error: 'subscriptions require a passphrase (PayFast rejects unsigned-by-passphrase subscription requests)',
    path: ['passphrase'],
  });

export type PaymentRequestInput = z.input<typeof paymentRequestInputSchema>;

export class PayFastInputError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid PayFast payment request: ${problems.join('; ')}`);
    this.name = 'PayFastInputError';
  }
}

/** `12345` cents -> `"123.45"`. Integer arithmetic only, so no floating-point rounding. */
export function formatCents(amountCents: number): string {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0) {
    throw new PayFastInputError([`amount must be a non-negative integer number of cents, got ${String(amountCents)}`]);
  }
  const rand = Math.floor(amountCents / 100);
  const rest = amountCents % 100;
  return `${rand}.${rest.toString().padStart(2, '0')}`;
}

export interface PaymentRequest {
  /** Ordered fields without the signature, blanks already dropped. */
  fields: Array<[string, string]>;
  signature: string;
  /** Ordered fields followed by `signature`, ready for hidden form inputs. */
  formFields(): Array<[string, string]>;
  /** `{processUrl}?{query}` with the query encoded exactly as signed. */
  url(processUrl?: string): string;
}

const flag = (b: boolean | undefined): string | undefined => (b === undefined ? undefined : b ? '1' : '0');

/** Validates the input, lays the fields out in PayFast's documented order, formats amounts and signs. */
export function buildPaymentRequest(input: PaymentRequestInput): PaymentRequest {
  const parsed = paymentRequestInputSchema.safeParse(input);
  if (!parsed.success) {
    throw new PayFastInputError(parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`));
  }
  const p = parsed.data;
  const values: Partial<Record<string, string | undefined>> = {
    merchant_id: p.merchantId,
    merchant_key: p.merchantKey,
    return_url: p.returnUrl,
    cancel_url: p.cancelUrl,
    notify_url: p.notifyUrl,
    name_first: p.buyer?.nameFirst,
    name_last: p.buyer?.nameLast,
    email_address: p.buyer?.emailAddress,
    cell_number: p.buyer?.cellNumber,
    m_payment_id: p.mPaymentId,
    amount: formatCents(p.amountCents),
    item_name: p.itemName,
    item_description: p.itemDescription,
    email_confirmation: flag(p.emailConfirmation),
    confirmation_address: p.confirmationAddress,
    payment_method: p.paymentMethod,
  };
  p.customInt?.forEach((v, i) => (values[`custom_int${i + 1}`] = String(v)));
  p.customStr?.forEach((v, i) => (values[`custom_str${i + 1}`] = v));
  const s = p.subscription;
  if (s) {
    values.subscription_type = String(s.subscriptionType);
    values.billing_date = s.billingDate;
    values.recurring_amount = formatCents(s.recurringAmountCents);
    values.frequency = String(s.frequency);
    values.cycles = String(s.cycles);
    values.subscription_notify_email = flag(s.subscriptionNotifyEmail);
    values.subscription_notify_webhook = flag(s.subscriptionNotifyWebhook);
    values.subscription_notify_buyer = flag(s.subscriptionNotifyBuyer);
  }
  const fields: Array<[string, string]> = [];
  for (const key of PAYFAST_FIELD_ORDER) {
    const v = values[key]?.trim();
    if (v !== undefined && v !== '') fields.push([key, v]);
  }
  const sig = signature(fields, p.passphrase);
  return {
    fields,
    signature: sig,
    formFields: () => [...fields.map(([k, v]): [string, string] => [k, v]), ['signature', sig]],
    url: (processUrl = PAYFAST_PROCESS_URL) =>
      `${processUrl}?${[...fields, ['signature', sig] as const].map(([k, v]) => `${k}=${pfEncode(v)}`).join('&')}`,
  };
}
