import { useState } from 'react';

/** 32 random characters for an idempotency key (crypto.randomUUID needs a secure context; getRandomValues does not). */
export function newSubmissionKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The idempotency key of this form's submission: one per form shown, sent again with every retry of it (a 503, a lost
 * answer), so that the server stores the submission once and answers a repeat with the first result. A form that
 * was sent is replaced by its thank-you text; showing the form again makes a new key.
 */
export function useSubmissionKey(): string {
  const [key] = useState(newSubmissionKey);
  return key;
}
