import type { FieldErrors as FormErrors } from 'react-hook-form';
import { Sections, sectionOfField } from './sections';

/** One message per field, keyed by its path in the document (`title`, `websiteLinks.0.url`, `gallery`). */
export type FieldErrors = Readonly<Record<string, string>>;

export const FIX_FIELDS_MESSAGE = 'Please correct the highlighted fields.';

/**
 * The form's errors (react-hook-form's nested ones, from the contract schema or the server) as one message per path:
 * `{ websiteLinks: [{ url: { message } }] }` is `{ 'websiteLinks.0.url': message }`; a list's own error (its `root`)
 * is the list's path.
 */
export function fieldErrorsOf(errors: FormErrors): FieldErrors {
  const out: Record<string, string> = {};
  const visit = (node: unknown, path: string) => {
    if (typeof node !== 'object' || node === null) return;
    const { message } = node as { message?: unknown };
    if (typeof message === 'string' && path) out[path] ??= message;
    for (const [key, inner] of Object.entries(node)) {
      if (key === 'message' || key === 'type' || key === 'types' || key === 'ref') continue;
      visit(inner, key === 'root' ? path : path ? `${path}.${key}` : key);
    }
  };
  visit(errors, '');
  return out;
}

/** The id of the control that edits a path (`pe-websiteLinks-0-url`): error links and focus find it by this. */
export function fieldId(path: string): string {
  return `pe-${path.replace(/\./g, '-')}`;
}

/** The errors in the order of the sections (then of the paths), for the summary and for focusing the first one. */
export function orderedErrors(errors: FieldErrors): Array<{ path: string; message: string }> {
  const order = (path: string) => Sections.findIndex((section) => section.id === sectionOfField(path));
  return Object.entries(errors)
    .map(([path, message]) => ({ path, message }))
    .sort((a, b) => order(a.path) - order(b.path));
}
