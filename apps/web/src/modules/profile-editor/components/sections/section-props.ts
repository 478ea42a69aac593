import type { Membership, ProfileDocument } from '@digicard/contracts';
import { flushSync } from 'react-dom';
import type { ProfileEditor } from '../../hooks/use-profile-editor';
import { fieldId, type FieldErrors } from '../../utils/validation';

/** What a section of the editor gets: the draft, its errors, and the ways to change it. */
export interface DocumentSectionProps {
  doc: ProfileDocument;
  errors: FieldErrors;
  membership: Membership;
  setField: ProfileEditor['setField'];
  edit: ProfileEditor['edit'];
  imageStored: ProfileEditor['imageStored'];
}

/** Makes a change, renders it at once, then puts the keyboard focus on the control of `path` (a new row, say). */
export function changeThenFocus(change: () => void, path: string): void {
  flushSync(change);
  document.getElementById(fieldId(path))?.focus();
}

/** A list with one row replaced by `patch`. */
export function patchRow<T>(rows: readonly T[], index: number, patch: Partial<T>): T[] {
  return rows.map((row, i) => (i === index ? { ...row, ...patch } : row));
}
