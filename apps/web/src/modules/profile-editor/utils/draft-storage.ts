import type { ProfileDocument } from '@digicard/contracts';
import { USER_DATA_STORAGE_KEY } from '../../session/utils/session-actions';
import { documentFromStorage, sameDocument } from './document';

/**
 * The profile as it is being edited, mirrored into localStorage `userData` (the product's key; sign-out removes
 * it) on every edit: `base` is the document last known to be saved on the server, `document` the edited one.
 */
interface StoredDraft {
  readonly username: string;
  readonly base: ProfileDocument;
  readonly document: ProfileDocument;
}

export function storeDraft(draft: StoredDraft): void {
  try {
    localStorage.setItem(USER_DATA_STORAGE_KEY, JSON.stringify(draft));
  } catch {
    // Storage full or unavailable (private mode): the editor works without the copy.
  }
}

/**
 * Unsaved edits left in this browser (the tab was closed, the session ended, another page was opened) for this
 * user, when the server still holds the document they started from. Null otherwise.
 */
export function restorableDraft(username: string, saved: ProfileDocument): ProfileDocument | null {
  let value: unknown;
  try {
    const text = localStorage.getItem(USER_DATA_STORAGE_KEY);
    if (!text) return null;
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || !('username' in value) || value.username !== username) return null;
  const base = 'base' in value ? documentFromStorage(value.base) : null;
  const document = 'document' in value ? documentFromStorage(value.document) : null;
  if (!base || !document || !sameDocument(base, saved) || sameDocument(document, saved)) return null;
  return document;
}
