import { Inject, Injectable } from '@nestjs/common';
import {
  ANALYTICS_SUMMARY_DAYS,
  AnalyticsSources,
  AnalyticsUpgradeMessage,
  type AnalyticsBatch,
  type AnalyticsRange,
  type AnalyticsReport,
  type AnalyticsSource,
  type TeamAnalyticsNumbers,
  type TeamAnalyticsRequest,
  TeamMessages,
} from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { can, saDay } from '@digicard/domain';
import { CONFIG, DATABASE, ServiceError } from '@digicard/server';
import type { Config } from '../config.js';
import { membershipOf } from '../profiles/profile.mapping.js';
import { ProfileWriter } from '../profiles/profile-writer.js';
import { ProfilesRepository } from '../profiles/profiles.repository.js';
import { AnalyticsRepository } from './analytics.repository.js';

const DAY_MS = 86_400_000;
type Counts = AnalyticsReport['totals'];
type BySource = AnalyticsReport['bySource'];

const emptySources = (): BySource => ({ link: 0, qr: 0, nfc: 0, wa: 0, email: 0, wallet: 0 });
const emptyCounts = (): Counts => ({ views: 0, visitors: 0, saves: 0, clicks: 0, leads: 0 });

/** Every day from `from` to `to`, both included. */
function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(from); t <= Date.parse(to); t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/**
 * The owner's analytics. Every tier sees the last 30 days' totals; DigiPlatinum (a team member: the business's tier)
 * gets any range, by source, card, click target and day. Asking for a range without it is refused (403).
 */
@Injectable()
export class AnalyticsQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(ProfileWriter) private readonly writer: ProfileWriter,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(AnalyticsRepository) private readonly analytics: AnalyticsRepository,
  ) {}

  /** A batch from a gateway replica (a fire-and-forget notice), within the configured caps per profile and day. */
  record(batch: AnalyticsBatch): Promise<void> {
    return this.analytics.record(this.db, batch, {
      keysPerDay: this.config.ANALYTICS_KEYS_PER_DAY,
      visitorsPerDay: this.config.ANALYTICS_VISITORS_PER_DAY,
    });
  }

  async report(accountId: string, range: AnalyticsRange, today = saDay()): Promise<AnalyticsReport> {
    const row = await this.writer.own(accountId);
    const business = row.businessAccountId ? await this.profiles.byAccount(this.db, row.businessAccountId) : null;
    const full = can(membershipOf(business ?? row), 'analytics');
    const { from, to } = this.period(full, range, today);

    const [rows, visitors, leads] = await Promise.all([
      this.analytics.counts(this.db, accountId, from, to),
      this.analytics.visitorsPerDay(this.db, accountId, from, to),
      this.analytics.leadsPerDay(this.db, accountId, from, to),
    ]);
    const daily = new Map(daysBetween(from, to).map((day) => [day, { day, ...emptyCounts(), bySource: emptySources() }]));
    const cards = new Map<string, number>();
    const clicks = new Map<string, number>();
    for (const r of rows) {
      const d = daily.get(r.day);
      if (!d) continue;
      if (r.metric === 'view' && (AnalyticsSources as readonly string[]).includes(r.key)) {
        d.views += r.count;
        d.bySource[r.key as AnalyticsSource] += r.count;
      } else if (r.metric === 'card') cards.set(r.key, (cards.get(r.key) ?? 0) + r.count);
      else if (r.metric === 'save') d.saves += r.count;
      else if (r.metric === 'click') {
        d.clicks += r.count;
        clicks.set(r.key, (clicks.get(r.key) ?? 0) + r.count);
      }
    }
    for (const d of daily.values()) {
      d.visitors = visitors.get(d.day) ?? 0;
      d.leads = leads.get(d.day) ?? 0;
    }
    const days = [...daily.values()];
    const totals = emptyCounts();
    const bySource = emptySources();
    for (const d of days) {
      for (const k of Object.keys(totals) as Array<keyof Counts>) totals[k] += d[k];
      for (const s of AnalyticsSources) bySource[s] += d.bySource[s];
    }
    if (!full) return { full, from, to, totals, bySource: emptySources(), cards: [], clicks: [], daily: [] };
    return {
      full,
      from,
      to,
      totals,
      bySource,
      cards: [...cards].map(([serial, views]) => ({ serial, views })).sort((a, b) => b.views - a.views),
      clicks: [...clicks].map(([target, count]) => ({ target, count })).sort((a, b) => b.count - a.count),
      daily: days,
    };
  }

  /**
   * A page of the leader view: the counts of the reps asked for (a page of teams' list) over the same periods as the
   * owner's report, and the team's totals. Only reps whose profile shows this leader's business (profiles' own record,
   * `teams.member.added`) are answered, so a leader sees no one else's numbers whatever ids they name; the totals are
   * those reps' sums. Teams are DigiPlatinum's: a leader below it is refused (403), whatever the session says.
   */
  async teamReport(leaderId: string, { accountIds, ...range }: TeamAnalyticsRequest, today = saDay()): Promise<TeamAnalyticsNumbers> {
    const leader = await this.writer.own(leaderId);
    if (!can(membershipOf(leader), 'teams')) throw ServiceError.forbidden(TeamMessages.needsPlatinum);
    const { from, to } = this.period(can(membershipOf(leader), 'analytics'), range, today);
    const members = (await this.profiles.membersOf(this.db, leaderId)).map((r) => r.accountId);
    const counts = await this.analytics.totalsPerAccount(this.db, members, from, to);
    const totals = emptyCounts();
    for (const c of counts.values()) for (const k of Object.keys(totals) as Array<keyof Counts>) totals[k] += c[k];
    const asked = new Set(accountIds);
    const reps = [...counts].filter(([accountId]) => asked.has(accountId)).map(([accountId, c]) => ({ accountId, ...c }));
    return { full: true, from, to, reps, totals };
  }

  /** The report's days: the last 30 (SAST) by default; any range only with analytics (DigiPlatinum), else 403. */
  private period(full: boolean, range: AnalyticsRange, today: string): { from: string; to: string } {
    if (!full && (range.from || range.to)) throw ServiceError.forbidden(AnalyticsUpgradeMessage);
    const to = range.to ?? (range.from && range.from > today ? range.from : today);
    const from = range.from ?? new Date(Date.parse(to) - (ANALYTICS_SUMMARY_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
    return { from, to };
  }
}
