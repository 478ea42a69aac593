import { encodeCursor, type StaffAuditEntry, type StaffAuditPage } from '@digicard/contracts';

/** Newest first, as each service orders its page: by time (to the microsecond), then by id, both descending. */
const newerFirst = (a: StaffAuditEntry, b: StaffAuditEntry): number =>
  a.at === b.at ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.at < b.at ? 1 : -1;

/**
 * One page of an account's audit from the pages identity and profiles answered for the same cursor (each the next
 * `limit` of its own changes after that position). The pages are merged newest first and cut at `limit`; a service
 * whose page did not hold all it has left (its `nextCursor`) may still have changes older than its last one, so
 * nothing past that last one is shown yet. The next cursor is the position of the last change shown, which both
 * services read the same way (a time and an id), so no change is left out or shown twice across pages.
 */
export function mergeAuditPages(pages: readonly StaffAuditPage[], limit: number): StaffAuditPage {
  const all = pages.flatMap((page) => page.entries).sort(newerFirst);
  const cuts = pages.filter((page) => page.nextCursor !== null && page.entries.length > 0).map((page) => page.entries.at(-1)!);
  const shown = all.filter((entry) => cuts.every((cut) => newerFirst(entry, cut) <= 0)).slice(0, limit);
  const more = shown.length < all.length || pages.some((page) => page.nextCursor !== null);
  const last = shown.at(-1);
  return { entries: shown, nextCursor: more && last ? encodeCursor({ at: last.at, id: last.id }) : null };
}
