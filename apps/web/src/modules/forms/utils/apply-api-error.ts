import { ErrorCode, type ApiError } from '@digicard/contracts';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

/** Shown for 403, 503, no answer at all, and anything else the form cannot fix by itself. */
export const SEND_FAILED_MESSAGE = 'We could not send your details right now. Please try again in a minute.';

/**
 * Puts a failed submission on the form: a 400's field errors go on their fields (the first one is focused);
 * the return value is the form-level message to show, or null when the field errors say it all.
 * A 429 shows the server's own message (it says when to try again); anything else shows `fallback`.
 */
export function applyApiError<T extends FieldValues>(
  error: ApiError,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
  fallback: string = SEND_FAILED_MESSAGE,
): string | null {
  if (error.statusCode === 400) {
    let placed = 0;
    const unplaced: string[] = [];
    for (const [key, messages] of Object.entries(error.fieldErrors ?? {})) {
      const message = messages[0];
      if (!message) continue;
      const field = fields.find((name) => name === key);
      if (field) {
        setError(field, { type: 'server', message }, { shouldFocus: placed === 0 });
        placed += 1;
      } else {
        unplaced.push(message);
      }
    }
    if (placed > 0 && unplaced.length === 0) return null;
    return unplaced[0] ?? error.message;
  }
  if (isTooManyRequests(error)) return error.message;
  return fallback;
}

/** A 429 whose message (it says when to try again) is worth showing as it is. */
export function isTooManyRequests(error: ApiError): boolean {
  return error.statusCode === 429 && error.code === ErrorCode.TooManyRequests && error.message.length > 0;
}
