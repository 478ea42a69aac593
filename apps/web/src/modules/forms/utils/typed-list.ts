import type { ApiError } from '@digicard/contracts';
import { z } from 'zod';

/**
 * A list typed in one text field (vanity paths, email domains: separated by commas or spaces), checked by the
 * contract's schema of the list. The field's error names the first wrong item as the server does
 * ("dashboard: That path is a page of the site."); the form's value is the list as the schema makes it.
 */
export function typedList<S extends z.ZodType<unknown[]>>(list: S, split: (text: string) => string[] = splitList) {
  return z.string().transform((text, context): z.output<S> => {
    const items = split(text);
    const parsed = list.safeParse(items);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const index = issue?.path[0];
    const item = typeof index === 'number' ? items[index] : undefined;
    const message = issue?.message ?? 'Please check this list.';
    context.addIssue({ code: 'custom', message: item === undefined ? message : `${item}: ${message}` });
    return z.NEVER;
  });
}

/** The items of a list typed in one field: separated by commas, semicolons or white space; empty ones left out. */
export function splitList(text: string): string[] {
  return text.split(/[\s,;]+/).filter(Boolean);
}

/**
 * A server's refusal of a typed list's items (`domains.1`) in the words the form shows: each message led by the item
 * it is about ("example: Please enter a valid email domain."). Keys of other fields are left as they are.
 */
export function namingListItems(error: ApiError, field: string, items: readonly string[]): ApiError {
  if (!error.fieldErrors) return error;
  const fieldErrors = Object.fromEntries(
    Object.entries(error.fieldErrors).map(([key, messages]) => {
      const item = key.startsWith(`${field}.`) ? items[Number(key.slice(field.length + 1))] : undefined;
      return [key, item === undefined ? messages : messages.map((message) => `${item}: ${message}`)];
    }),
  );
  return { ...error, fieldErrors };
}
