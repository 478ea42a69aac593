import { HttpRoutes, type AddRepRequest, type AnalyticsRange, type ImportRepsRequest, type Rep, type RepFields } from '@digicard/contracts';
import { deleteJson, getJsonWithQuery, getPage, postJson, putJson, routePath } from '../../api/http';

/** GET /api/team/reps: a page of the signed-in leader's reps, in the order they joined (the first without a cursor). */
export function fetchTeam(cursor: string | null = null) {
  return getPage(HttpRoutes.listTeam, cursor);
}

/** Every rep of the leader, page after page (whom a card can be pointed at); null when a page could not be read. */
export async function fetchWholeTeam(): Promise<Rep[] | null> {
  const reps: Rep[] = [];
  let cursor: string | null = null;
  do {
    const page = await fetchTeam(cursor);
    if (!page.ok) return null;
    reps.push(...page.data.reps);
    cursor = page.data.nextCursor;
  } while (cursor);
  return reps;
}

/** POST /api/team/reps: one rep; the leader confirms with their own password and stays signed in. */
export function addRep(body: AddRepRequest) {
  return postJson(HttpRoutes.addRep, body);
}

/** POST /api/team/reps/import: many reps; `dryRun` checks only. Field errors `reps.<row>.<field>`. */
export function importReps(body: ImportRepsRequest) {
  return postJson(HttpRoutes.importReps, body);
}

export function updateRep(accountId: string, body: RepFields) {
  return putJson({ ...HttpRoutes.updateRep, path: routePath(HttpRoutes.updateRep.path, { accountId }) }, body);
}

export function removeRep(accountId: string) {
  return deleteJson({ ...HttpRoutes.removeRep, path: routePath(HttpRoutes.removeRep.path, { accountId }) });
}

/** POST /api/team/wallet-passes: every rep is emailed the links to add their own card to their phone's wallet. */
export function offerRepPasses() {
  return postJson(HttpRoutes.offerRepPasses);
}

export const TeamLinks = { leadsCsv: HttpRoutes.exportTeamLeads.path } as const;

/**
 * GET /api/team/analytics: views, saves and leads per rep and for the team (the last 30 days, or a range), a page of
 * reps at a time (the first without a cursor, the next with the last page's `nextCursor`).
 */
export function fetchTeamAnalytics(range: AnalyticsRange, cursor: string | null = null) {
  return getJsonWithQuery(HttpRoutes.getTeamAnalytics, { from: range.from ?? '', to: range.to ?? '', cursor: cursor ?? '' });
}

/** The leader view's CSV download (opened by the browser with the session cookie). */
export function teamAnalyticsCsvUrl(range: AnalyticsRange): string {
  const search = new URLSearchParams(Object.entries(range).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString();
  return search ? `${HttpRoutes.exportTeamAnalytics.path}?${search}` : HttpRoutes.exportTeamAnalytics.path;
}
