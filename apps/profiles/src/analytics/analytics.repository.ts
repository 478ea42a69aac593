import { Injectable } from '@nestjs/common';
import { and, between, eq, inArray, sql } from 'drizzle-orm';
import type { AnalyticsBatch } from '@digicard/contracts';
import { SA_TIME_ZONE, saDay } from '@digicard/domain';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { analyticsDaily, analyticsVisitors, cardSerials, leads } from '../db/schema.js';

type Executor = Database | Transaction;

/** A lead's South African date (the zone as a literal: a bound parameter would make GROUP BY's expression differ). */
const leadDay = sql`(${leads.createdAt} AT TIME ZONE ${sql.raw(`'${SA_TIME_ZONE}'`)})::date`;

/** How much one profile's analytics may grow a day (profiles' `ANALYTICS_KEYS_PER_DAY`, `ANALYTICS_VISITORS_PER_DAY`). */
export interface AnalyticsCaps {
  /** Distinct keys per profile, day and metric, for the metrics whose keys are open-ended (`card`, `click`). */
  keysPerDay: number;
  visitorsPerDay: number;
}

/** All of the analytics SQL: counting up a batch, and reading an owner's days back. */
@Injectable()
export class AnalyticsRepository {
  /**
   * Adds a batch: each entry's count onto its row (per owner, day, metric, key), each visitor once a day. Pages are
   * named by username and joined to their owner here, in one statement each; a name that is no profile is dropped.
   * Anyone can put any well-formed `?card=` on a page's address: a view through a card counts only when the card opens
   * that page (`card_serials`, from orders' events), so made-up serials and other people's cards add nothing. Cards
   * and click targets are then capped at `keysPerDay` rows per profile, day and metric (the keys already counted that
   * day go on counting; new ones beyond the cap are dropped, most viewed first kept), visitors at `visitorsPerDay`
   * rows, so a flood cannot grow an owner's report without end (it is one NATS reply).
   */
  async record(db: Executor, batch: AnalyticsBatch, caps: AnalyticsCaps): Promise<void> {
    if (batch.entries.length > 0) {
      await db.execute(sql`
        WITH n AS (
          SELECT p.account_id, e.day, e.metric, e.key, sum(e.count)::integer AS count
          FROM jsonb_to_recordset(${JSON.stringify(batch.entries)}::jsonb) AS e(username text, day date, metric text, key text, count integer)
          JOIN profiles.profiles p ON p.username = e.username
          WHERE e.metric <> 'card'
            OR EXISTS (SELECT 1 FROM ${cardSerials} c WHERE c.serial = e.key AND c.account_id = p.account_id)
          GROUP BY 1, 2, 3, 4
        ),
        keyed AS (
          SELECT n.*, EXISTS (
            SELECT 1 FROM ${analyticsDaily} d
            WHERE d.account_id = n.account_id AND d.day = n.day AND d.metric = n.metric AND d.key = n.key
          ) AS known
          FROM n WHERE n.metric IN ('card', 'click')
        ),
        counted AS (
          SELECT d.account_id, d.day, d.metric, count(*) AS already
          FROM ${analyticsDaily} d
          JOIN (SELECT DISTINCT account_id, day, metric FROM keyed) k ON k.account_id = d.account_id AND k.day = d.day AND k.metric = d.metric
          GROUP BY 1, 2, 3
        ),
        new_keys AS (
          SELECT keyed.*,
            row_number() OVER (PARTITION BY keyed.account_id, keyed.day, keyed.metric ORDER BY count DESC, key) AS rank,
            coalesce(counted.already, 0) AS already
          FROM keyed
          LEFT JOIN counted ON counted.account_id = keyed.account_id AND counted.day = keyed.day AND counted.metric = keyed.metric
          WHERE NOT known
        )
        INSERT INTO ${analyticsDaily} (account_id, day, metric, key, count)
        SELECT account_id, day, metric, key, count FROM n WHERE metric NOT IN ('card', 'click')
        UNION ALL SELECT account_id, day, metric, key, count FROM keyed WHERE known
        UNION ALL SELECT account_id, day, metric, key, count FROM new_keys WHERE already + rank <= ${caps.keysPerDay}
        ON CONFLICT (account_id, day, metric, key) DO UPDATE SET count = ${analyticsDaily}.count + excluded.count`);
    }
    if (batch.visitors.length > 0) {
      await db.execute(sql`
        WITH v AS (
          SELECT DISTINCT p.account_id, v.day, v.hash
          FROM jsonb_to_recordset(${JSON.stringify(batch.visitors)}::jsonb) AS v(username text, day date, hash text)
          JOIN profiles.profiles p ON p.username = v.username
        ),
        counted AS (
          SELECT a.account_id, a.day, count(*) AS already
          FROM ${analyticsVisitors} a JOIN (SELECT DISTINCT account_id, day FROM v) k ON k.account_id = a.account_id AND k.day = a.day
          GROUP BY 1, 2
        ),
        ranked AS (
          SELECT v.*, row_number() OVER (PARTITION BY v.account_id, v.day ORDER BY hash) AS rank, coalesce(counted.already, 0) AS already
          FROM v LEFT JOIN counted ON counted.account_id = v.account_id AND counted.day = v.day
        )
        INSERT INTO ${analyticsVisitors} (account_id, day, hash)
        SELECT account_id, day, hash FROM ranked WHERE already + rank <= ${caps.visitorsPerDay}
        ON CONFLICT DO NOTHING`);
    }
  }

  /**
   * Points cards at the page they open now (orders' `orders.cards.assigned`); an assignment older than the one kept
   * for a card is ignored.
   */
  async assignCards(tx: Transaction, cards: Array<{ serial: string; accountId: string }>, at: Date): Promise<void> {
    if (cards.length === 0) return;
    await tx
      .insert(cardSerials)
      .values(cards.map((c) => ({ serial: c.serial, accountId: c.accountId, assignedAt: at })))
      .onConflictDoUpdate({
        target: cardSerials.serial,
        set: { accountId: sql`excluded.account_id`, assignedAt: sql`excluded.assigned_at` },
        setWhere: sql`${cardSerials.assignedAt} <= excluded.assigned_at`,
      });
  }

  counts(
    db: Executor,
    accountId: string,
    from: string,
    to: string,
  ): Promise<Array<{ day: string; metric: string; key: string; count: number }>> {
    return db
      .select({ day: analyticsDaily.day, metric: analyticsDaily.metric, key: analyticsDaily.key, count: analyticsDaily.count })
      .from(analyticsDaily)
      .where(and(eq(analyticsDaily.accountId, accountId), between(analyticsDaily.day, from, to)));
  }

  async visitorsPerDay(db: Executor, accountId: string, from: string, to: string): Promise<Map<string, number>> {
    const rows = await db
      .select({ day: analyticsVisitors.day, n: sql<number>`count(*)::integer` })
      .from(analyticsVisitors)
      .where(and(eq(analyticsVisitors.accountId, accountId), between(analyticsVisitors.day, from, to)))
      .groupBy(analyticsVisitors.day);
    return new Map(rows.map((r) => [r.day, Number(r.n)]));
  }

  async leadsPerDay(db: Executor, accountId: string, from: string, to: string): Promise<Map<string, number>> {
    const day = sql<string>`to_char(${leadDay}, 'YYYY-MM-DD')`;
    const rows = await db
      .select({ day, n: sql<number>`count(*)::integer` })
      .from(leads)
      .where(and(eq(leads.accountId, accountId), sql`${leadDay} BETWEEN ${from}::date AND ${to}::date`))
      .groupBy(day);
    return new Map(rows.map((r) => [r.day, Number(r.n)]));
  }

  /**
   * The leader view: the same counts as `counts`, `visitorsPerDay` and `leadsPerDay`, summed over the range for each
   * of several accounts (a team) in one statement each: views (every source), Save to Contact and clicks; unique
   * visitors (a visitor is counted once per day, as in the owner's report); leads.
   */
  async totalsPerAccount(
    db: Executor,
    accountIds: string[],
    from: string,
    to: string,
  ): Promise<Map<string, { views: number; saves: number; clicks: number; visitors: number; leads: number }>> {
    const totals = new Map(accountIds.map((id) => [id, { views: 0, saves: 0, clicks: 0, visitors: 0, leads: 0 }]));
    if (accountIds.length === 0) return totals;
    const [counts, visitors, leadRows] = await Promise.all([
      db
        .select({
          accountId: analyticsDaily.accountId,
          metric: analyticsDaily.metric,
          n: sql<number>`sum(${analyticsDaily.count})::integer`,
        })
        .from(analyticsDaily)
        .where(
          and(
            inArray(analyticsDaily.accountId, accountIds),
            between(analyticsDaily.day, from, to),
            inArray(analyticsDaily.metric, ['view', 'save', 'click']),
          ),
        )
        .groupBy(analyticsDaily.accountId, analyticsDaily.metric),
      db
        .select({ accountId: analyticsVisitors.accountId, n: sql<number>`count(*)::integer` })
        .from(analyticsVisitors)
        .where(and(inArray(analyticsVisitors.accountId, accountIds), between(analyticsVisitors.day, from, to)))
        .groupBy(analyticsVisitors.accountId),
      db
        .select({ accountId: leads.accountId, n: sql<number>`count(*)::integer` })
        .from(leads)
        .where(and(inArray(leads.accountId, accountIds), sql`${leadDay} BETWEEN ${from}::date AND ${to}::date`))
        .groupBy(leads.accountId),
    ]);
    for (const r of counts) {
      const t = totals.get(r.accountId);
      if (!t) continue;
      if (r.metric === 'view') t.views += Number(r.n);
      else if (r.metric === 'save') t.saves += Number(r.n);
      else if (r.metric === 'click') t.clicks += Number(r.n);
    }
    for (const r of visitors) totals.get(r.accountId)!.visitors = Number(r.n);
    for (const r of leadRows) totals.get(r.accountId)!.leads = Number(r.n);
    return totals;
  }

  /**
   * A page of the owner's totals of every metric and key, all time (the POPIA export), ordered by metric and key
   * (bytewise, in the query and in the cursor alike): `limit + 1` at most, after `start`. The keys are many
   * (a card serial, a click target: each day brings new ones), so they are read a page at a time.
   */
  async totalsPage(
    db: Executor,
    accountId: string,
    start: { id: string; key: string } | null,
    limit: number,
  ): Promise<Array<{ metric: string; key: string; count: number }>> {
    const metric = sql`${analyticsDaily.metric} COLLATE "C"`;
    const key = sql`${analyticsDaily.key} COLLATE "C"`;
    const rows = await db
      .select({ metric: analyticsDaily.metric, key: analyticsDaily.key, count: sql<number>`sum(${analyticsDaily.count})::integer` })
      .from(analyticsDaily)
      .where(and(eq(analyticsDaily.accountId, accountId), start ? sql`(${metric}, ${key}) > (${start.id}, ${start.key})` : undefined))
      .groupBy(analyticsDaily.metric, analyticsDaily.key)
      .orderBy(metric, key)
      .limit(limit + 1);
    return rows.map((r) => ({ ...r, count: Number(r.count) }));
  }

  /** Views counted by the service itself (a caller that names a source), onto today's analytics row. */
  async recordView(db: Executor, accountId: string, source: 'link' | 'qr' | 'nfc', count = 1): Promise<void> {
    await db
      .insert(analyticsDaily)
      .values({ accountId, day: saDay(), metric: 'view', key: source, count: Math.min(count, 1_000_000) })
      .onConflictDoUpdate({
        target: [analyticsDaily.accountId, analyticsDaily.day, analyticsDaily.metric, analyticsDaily.key],
        set: { count: sql`${analyticsDaily.count} + excluded.count` },
      });
  }

  /** Views kept for the owner, by source, all time (the POPIA export). */
  async viewCounts(db: Executor, accountId: string): Promise<Record<string, number>> {
    const rows = await db
      .select({ source: analyticsDaily.key, n: sql<number>`sum(${analyticsDaily.count})::integer` })
      .from(analyticsDaily)
      .where(and(eq(analyticsDaily.accountId, accountId), eq(analyticsDaily.metric, 'view')))
      .groupBy(analyticsDaily.key);
    return Object.fromEntries(rows.map((r) => [r.source, Number(r.n)]));
  }
}
