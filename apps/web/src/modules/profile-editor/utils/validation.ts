import { ProfileDocumentSchema, type ProfileDocument } from '@digicard/contracts';
import { Sections, sectionOfField } from './sections';

/** One message per field, keyed by its path in the document (`title`, `websiteLinks.0.url`, `gallery`). */
export type FieldErrors = Readonly<Record<string, string>>;

export const FIX_FIELDS_MESSAGE = 'Please correct the highlighted fields.';

export type Validation = { ok: true; document: ProfileDocument } | { ok: false; errors: FieldErrors };

/** The same checks and messages as the server's (ProfileDocumentSchema); the parsed document has its text trimmed. */
export function validateDocument(document: ProfileDocument): Validation {
  const parsed = ProfileDocumentSchema.safeParse(document);
  if (parsed.success) return { ok: true, document: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String).join('.') || '_form';
    errors[path] ??= issue.message;
  }
  return { ok: false, errors };
}

/** A 400's field errors (keyed `document.websiteLinks.0.url`) as the editor's paths. */
export function errorsFromServer(fieldErrors: Readonly<Record<string, readonly string[]>> | undefined): FieldErrors {
  const errors: Record<string, string> = {};
  for (const [key, messages] of Object.entries(fieldErrors ?? {})) {
    const message = messages[0];
    if (!message) continue;
    const path = key === 'document' ? '_form' : key.replace(/^document\./, '');
    errors[path] ??= message;
  }
  return errors;
}

/** Errors whose path is `prefix` or lies under it go; the others stay. */
export function withoutErrors(errors: FieldErrors, prefix: string): FieldErrors {
  const kept = Object.entries(errors).filter(([path]) => path !== prefix && !path.startsWith(`${prefix}.`));
  return kept.length === Object.keys(errors).length ? errors : Object.fromEntries(kept);
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
