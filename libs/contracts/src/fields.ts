import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { z } from 'zod';

/** Field rules shared by every form that asks for them, so the browser and the server say the same thing. */
export const personName = z
  .string({ error: 'Please enter your name.' })
  .trim()
  .min(1, 'Please enter your name.')
  .max(120, 'Please keep the name under 120 characters.');

export const emailAddress = z
  .string({ error: 'Please enter your email address.' })
  .trim()
  .min(1, 'Please enter your email address.')
  .max(254, 'That email address is too long.')
  .pipe(z.email('Please enter a valid email address, e.g. thabo@example.co.za.'));

const SA_PHONE_MESSAGE = 'Please enter a 10-digit phone number, e.g. 0821234567.';

/**
 * A South African number as the spec's forms take it: exactly 10 digits (0 and nine more, e.g. 0821234567), which the
 * one phone rule (`parsePhone`: libphonenumber) must also read as a South African number.
 */
export const phoneNumber = z
  .string({ error: 'Please enter your phone number.' })
  .trim()
  .min(1, 'Please enter your phone number.')
  .regex(/^\d{10}$/, { error: SA_PHONE_MESSAGE, abort: true })
  .refine((v) => southAfricanDigits(v) === v, SA_PHONE_MESSAGE);

/** A South African number's 10 national digits (0 and nine more), or null for anything else. */
function southAfricanDigits(value: string): string | null {
  const parsed = parsePhone(value);
  return parsed?.country === 'ZA' && parsed.nationalNumber.length === 9 ? `0${parsed.nationalNumber}` : null;
}

export const messageText = z
  .string({ error: 'Please enter a message.' })
  .trim()
  .min(1, 'Please enter a message.')
  .max(5000, 'Please keep the message under 5000 characters.');

/**
 * A phone number in any common South African form (082 123 4567, +27 82 123 4567, 27821234567, 0027...) or an
 * international one with its +code, as E.164 (+27821234567); null when it is not a possible number. Uses
 * libphonenumber-js (Google's metadata, the small set).
 */
export function toE164(value: string): string | null {
  return parsePhone(value)?.number ?? null;
}

/**
 * The one phone rule: a number in any common South African form (082 123 4567, +27 82 123 4567, 27821234567,
 * 0027...) or an international one with its +code, when it is a possible number (libphonenumber-js, Google's
 * metadata, the small set); null otherwise. Its `country` is 'ZA' for a South African number.
 */
export function parsePhone(value: string): { number: string; nationalNumber: string; country: string | undefined } | null {
  const trimmed = value.trim();
  // 27821234567 typed without the + is a South African number in international form.
  const candidate = /^27\d{9}$/.test(trimmed.replace(/[\s-]/g, '')) ? `+${trimmed}` : trimmed;
  const parsed = parsePhoneNumberFromString(candidate, 'ZA');
  return parsed?.isPossible() ? { number: parsed.number, nationalNumber: parsed.nationalNumber, country: parsed.country } : null;
}

const PHONE_MESSAGE = 'Please enter a phone number, e.g. 082 123 4567.';

/** An optional phone number, stored as E.164 ('' when left empty). */
export const optionalPhone = z.union([
  z.literal(''),
  z
    .string()
    .trim()
    .max(30, PHONE_MESSAGE)
    .refine((v) => toE164(v) !== null, PHONE_MESSAGE)
    .overwrite((v) => toE164(v) ?? v),
]);

/**
 * A form submission's idempotency key: made by the browser once per submission and sent again with each retry of it,
 * so that a submission the server stored after the gateway had already answered 503 (it finished after the time-out)
 * is answered with its first result instead of being stored twice.
 */
export const idempotencyKey = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,64}$/, 'Not a valid idempotency key.')
  .optional()
  .describe('Made by the browser once per form submission and sent again with its retries: a repeat is answered with the first result');

/** What a field holding a NUL character is told: PostgreSQL cannot store one, and no form has a reason to send it. */
export const NUL_CHARACTER_MESSAGE = 'Please remove the invisible NUL character from this field.';

/**
 * The fields of a request body whose text holds a NUL character (`\u0000`), in field-error form (`a.b.0`, `_form`
 * for the body itself; a NUL in a key names the object holding it). Every text of every body is refused this way
 * (`parseBody` in errors.ts): a rule of all strings, kept in one place rather than in each of the schemas.
 */
export function nulFieldErrors(
  value: unknown,
  path: readonly (string | number)[] = [],
  out: Record<string, string[]> = {},
): Record<string, string[]> {
  const name = path.length > 0 ? path.map(String).join('.') : '_form';
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out[name] = [NUL_CHARACTER_MESSAGE];
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => nulFieldErrors(item, [...path, index], out));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) out[name] = [NUL_CHARACTER_MESSAGE];
      else nulFieldErrors(item, [...path, key], out);
    }
  }
  return out;
}
