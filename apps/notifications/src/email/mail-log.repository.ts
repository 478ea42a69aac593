import { Injectable } from '@nestjs/common';
import { and, asc, eq, gt, isNotNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { after, orderOf, positionOf, type Keyset, type KeysetPosition } from '@digicard/server';
import { mailLog } from '../db/schema.js';

type Executor = Database | Transaction;
export type MailLogRow = typeof mailLog.$inferSelect;

const MailOldestFirst: Keyset = { at: mailLog.createdAt, id: mailLog.id, order: 'oldest-first' };

/** What a send attempt writes on the row it claims. */
export type MailClaim = Pick<typeof mailLog.$inferInsert, 'jobId' | 'template' | 'recipient' | 'subject' | 'smtpMessageId' | 'job'>;

/** The only SQL of the mail log: the emails owed, claimed, sent or failed, and its reads. */
@Injectable()
export class MailLogRepository {
  /** Records an email as owed (`queued`, with its job), unless its row exists already. */
  async recordOwed(db: Executor, row: MailClaim): Promise<void> {
    await db
      .insert(mailLog)
      .values({ ...row, status: 'queued', attempts: 0 })
      .onConflictDoNothing({ target: mailLog.jobId });
  }

  /**
   * The jobs of the emails owed for longer than `olderThan` and for less than a day (queued, or cut short while
   * sending, or failed with fewer than `maxAttempts` attempts) whose job is kept, oldest first.
   */
  async owedJobs(db: Executor, olderThan: Date, maxAttempts: number, limit: number): Promise<Array<{ job: unknown }>> {
    return db
      .select({ job: mailLog.job })
      .from(mailLog)
      .where(
        and(
          ne(mailLog.status, 'sent'),
          isNotNull(mailLog.job),
          lt(mailLog.updatedAt, olderThan),
          gt(mailLog.updatedAt, sql`now() - interval '1 day'`),
          lt(mailLog.attempts, maxAttempts),
        ),
      )
      .orderBy(asc(mailLog.updatedAt))
      .limit(limit);
  }

  async byJobId(db: Executor, jobId: string): Promise<MailLogRow | null> {
    const [row] = await db.select().from(mailLog).where(eq(mailLog.jobId, jobId)).limit(1);
    return row ?? null;
  }

  /**
   * The claim of a send attempt: a new row, or a failed one, or one whose lease ran out, set to `sending` and leased
   * for `leaseMs`; never one another attempt holds or sent. Returns the row's attempts, or null when not claimed.
   */
  async claim(db: Executor, row: MailClaim, leaseMs: number): Promise<{ attempts: number } | null> {
    const { job, ...base } = row;
    const leaseUntil = sql`now() + make_interval(secs => ${leaseMs / 1000})`;
    const claimed = await db
      .insert(mailLog)
      .values({ ...base, status: 'sending', attempts: 1, leaseUntil, error: null, job })
      .onConflictDoUpdate({
        target: mailLog.jobId,
        set: { ...base, status: 'sending', attempts: sql`${mailLog.attempts} + 1`, leaseUntil, error: null, updatedAt: new Date() },
        setWhere: or(
          eq(mailLog.status, 'queued'),
          eq(mailLog.status, 'failed'),
          and(eq(mailLog.status, 'sending'), lt(mailLog.leaseUntil, sql`now()`)),
        ),
      })
      .returning({ attempts: mailLog.attempts });
    return claimed[0] ?? null;
  }

  /** An attempt that failed: the lease is given back, the error kept. */
  async markFailed(db: Executor, jobId: string, error: string, at: Date): Promise<void> {
    await db.update(mailLog).set({ status: 'failed', leaseUntil: null, error, updatedAt: at }).where(eq(mailLog.jobId, jobId));
  }

  /** The email is out: its job is forgotten. */
  async markSent(db: Executor, jobId: string, at: Date): Promise<void> {
    await db
      .update(mailLog)
      .set({ status: 'sent', leaseUntil: null, error: null, job: null, updatedAt: at })
      .where(eq(mailLog.jobId, jobId));
  }

  /** A page of the emails sent (or tried) to an address, case-insensitively, oldest first: `limit + 1` at most. */
  async sentToPage(db: Database, address: string, start: KeysetPosition | null, limit: number) {
    const rows = await db
      .select({ row: mailLog, position: positionOf(mailLog.createdAt) })
      .from(mailLog)
      .where(and(sql`lower(${mailLog.recipient}) = ${address.trim().toLowerCase()}`, after(MailOldestFirst, start)))
      .orderBy(...orderOf(MailOldestFirst))
      .limit(limit + 1);
    return rows.map((r) => ({ ...r.row, position: r.position }));
  }

  /** Forgets every email sent (or tried) to an address, case-insensitively. */
  async forget(db: Database | Transaction, address: string): Promise<void> {
    await db.delete(mailLog).where(sql`lower(${mailLog.recipient}) = ${address.trim().toLowerCase()}`);
  }
}
