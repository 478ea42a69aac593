import {
  PAGE_LIMIT_MAX,
  Rpc,
  type AnalyticsRange,
  type PageRequest,
  type RequestMeta,
  type Team,
  type TeamAnalyticsNumbers,
  type TeamAnalyticsReport,
} from '@digicard/contracts';
import type { GatewayRpc } from '../rpc/rpc.client.js';

type Counts = TeamAnalyticsReport['totals'];
const zero = (): Counts => ({ views: 0, saves: 0, leads: 0, visitors: 0, clicks: 0 });

/**
 * A page of the leader view as the team is now. The reps are a page of teams' list (the list the section shows beside
 * the numbers, in the order they joined), the numbers profiles' for those reps: profiles hears of a rep added or
 * removed a moment after teams, so a rep teams has removed is never shown, and a rep profiles has not heard of yet
 * shows with no numbers. The totals are profiles' for the whole team (every page carries them): for that moment they
 * still count a rep teams has just removed.
 */
export function withCurrentReps(numbers: TeamAnalyticsNumbers, team: Team): TeamAnalyticsReport {
  const counted = new Map(numbers.reps.map((row) => [row.accountId, row]));
  const reps = team.reps.map((rep) => {
    const row = counted.get(rep.accountId);
    const counts = row ? { views: row.views, saves: row.saves, leads: row.leads, visitors: row.visitors, clicks: row.clicks } : zero();
    return { accountId: rep.accountId, username: rep.username, firstName: rep.firstName, lastName: rep.lastName, ...counts };
  });
  return { full: numbers.full, from: numbers.from, to: numbers.to, reps, totals: numbers.totals, nextCursor: team.nextCursor };
}

/** One page of the leader view: a page of teams' reps, then profiles' numbers for them (each one NATS reply). */
export async function teamReportPage(
  rpc: GatewayRpc,
  range: AnalyticsRange,
  page: PageRequest,
  meta: RequestMeta,
): Promise<TeamAnalyticsReport> {
  const team = await rpc.call(Rpc.listTeam, page, meta);
  const numbers = await rpc.call(Rpc.getTeamAnalytics, { ...range, accountIds: team.reps.map((rep) => rep.accountId) }, meta);
  return withCurrentReps(numbers, team);
}

/** The whole leader view (the CSV), read page after page; `nextCursor` is null. */
export async function wholeTeamReport(rpc: GatewayRpc, range: AnalyticsRange, meta: RequestMeta): Promise<TeamAnalyticsReport> {
  let report = await teamReportPage(rpc, range, { limit: PAGE_LIMIT_MAX }, meta);
  const reps = [...report.reps];
  while (report.nextCursor) {
    report = await teamReportPage(rpc, range, { cursor: report.nextCursor, limit: PAGE_LIMIT_MAX }, meta);
    reps.push(...report.reps);
  }
  return { ...report, reps };
}
