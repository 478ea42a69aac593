import { ErrorCode, type ApiError } from '@digicard/contracts';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

/** Shown for 403, 503, no answer at all, and anything else the form cannot fix by itself. */
export const SEND_FAILED_MESSAGE = 'We could not send your details right now. Please try again in a minute.';

/**
 * Puts a failed submission on the form: a 400's field errors go on their fields (the first one is focused); an error
 * about part of a field (`paths.1`, an item of a list typed in one text field) goes on that field; the return value is the form-level message to show, or null when the field errors say it all.
 * A 429 shows the server's own message (it says when to try again); anything else shows `fallback`.
 */
export function applyApiError<T extends FieldValues>(
  error: ApiError,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
  fallback: string = SEND_FAILED_MESSAGE,
): string | null {
  if (error.statusCode === 400) {
    const placed = new Set<Path<T>>();
    const unplaced: string[] = [];
    for (const [key, messages] of Object.entries(error.fieldErrors ?? {})) {
      const message = messages[0];
      if (!message) continue;
      const field = fieldOf(key, fields);
      if (field) {
        // One message a field: the first said about it (or about its first wrong part).
        if (!placed.has(field)) setError(field, { type: 'server', message }, { shouldFocus: placed.size === 0 });
        placed.add(field);
      } else {
        unplaced.push(message);
      }
    }
    if (placed.size > 0 && unplaced.length === 0) return null;
    return unplaced[0] ?? error.message;
  }
  if (isTooManyRequests(error)) return error.message;
  return fallback;
}

/** The form field a server's field-error key is about: the field of that name, or the field it is part of. */
function fieldOf<T extends FieldValues>(key: string, fields: readonly Path<T>[]): Path<T> | undefined {
  return fields.find((name) => name === key) ?? fields.find((name) => key.startsWith(`${name}.`));
}

/** A 429 whose message (it says when to try again) is worth showing as it is. */
export function isTooManyRequests(error: ApiError): boolean {
  return error.statusCode === 429 && error.code === ErrorCode.TooManyRequests && error.message.length > 0;
}
