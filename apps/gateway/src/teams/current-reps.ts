import { PAGE_LIMIT_MAX, Rpc, type AnalyticsRange, type RequestMeta, type Team, type TeamAnalyticsReport } from '@digicard/contracts';
import type { GatewayRpc } from '../rpc/rpc.client.js';

type Counts = TeamAnalyticsReport['totals'];
const zero = (): Counts => ({ views: 0, saves: 0, leads: 0, visitors: 0, clicks: 0 });

/**
 * The leader view as the team is now. The numbers come from profiles, which hears of a rep added or removed a moment
 * after teams: the reps are teams' (the list the section shows beside the numbers), a rep profiles still counts but
 * teams has removed is left out, a rep it has not heard of yet shows with no numbers, and the totals are the rows'.
 */
export function withCurrentReps(report: TeamAnalyticsReport, team: Pick<Team, 'reps'>): TeamAnalyticsReport {
  const counted = new Map(report.reps.map((row) => [row.accountId, row]));
  const reps = team.reps
    .map((rep) => {
      const row = counted.get(rep.accountId);
      const counts = row ? { views: row.views, saves: row.saves, leads: row.leads, visitors: row.visitors, clicks: row.clicks } : zero();
      return { accountId: rep.accountId, username: rep.username, firstName: rep.firstName, lastName: rep.lastName, ...counts };
    })
    .sort((a, b) => a.username.localeCompare(b.username));
  const totals = zero();
  for (const row of reps) for (const key of Object.keys(totals) as Array<keyof Counts>) totals[key] += row[key];
  return { ...report, reps, totals };
}

/** Every rep teams has now, read page after page (each page one NATS reply). */
export async function allReps(rpc: GatewayRpc, meta: RequestMeta): Promise<Pick<Team, 'reps'>> {
  const reps: Team['reps'] = [];
  let cursor: string | null = null;
  do {
    const page: Team = await rpc.call(Rpc.listTeam, { ...(cursor ? { cursor } : {}), limit: PAGE_LIMIT_MAX }, meta);
    reps.push(...page.reps);
    cursor = page.nextCursor;
  } while (cursor);
  return { reps };
}

/** Profiles' numbers for the reps teams has now (so the numbers and the list beside them always agree). */
export async function currentTeamReport(rpc: GatewayRpc, range: AnalyticsRange, meta: RequestMeta): Promise<TeamAnalyticsReport> {
  const [report, team] = await Promise.all([rpc.call(Rpc.getTeamAnalytics, range, meta), allReps(rpc, meta)]);
  return withCurrentReps(report, team);
}
