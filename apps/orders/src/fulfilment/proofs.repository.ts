import { Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { orders, proofs } from '../db/schema.js';

type Executor = Database | Transaction;
export type ProofRow = Omit<typeof proofs.$inferSelect, 'pdf' | 'png'>;

const proofColumns = {
  orderId: proofs.orderId,
  status: proofs.status,
  version: proofs.version,
  attempts: proofs.attempts,
  error: proofs.error,
  renderedAt: proofs.renderedAt,
  updatedAt: proofs.updatedAt,
};

/** The SQL of the print proofs: their files, renders owed and failures. */
@Injectable()
export class ProofsRepository {
  async proofsOf(db: Executor, orderIds: string[]): Promise<ProofRow[]> {
    if (orderIds.length === 0) return [];
    return db.select(proofColumns).from(proofs).where(inArray(proofs.orderId, orderIds));
  }

  async proofFile(db: Executor, orderId: string, kind: 'pdf' | 'png'): Promise<{ bytes: Buffer | null; version: number } | null> {
    const [row] = await db
      .select({ bytes: kind === 'pdf' ? proofs.pdf : proofs.png, version: proofs.version })
      .from(proofs)
      .where(eq(proofs.orderId, orderId))
      .limit(1);
    return row ?? null;
  }

  /** A render is on its way (the first, or again): the consoles show "rendering" until it is done or has failed. */
  async proofRendering(tx: Transaction, orderId: string): Promise<void> {
    await tx
      .insert(proofs)
      .values({ orderId, status: 'rendering' })
      .onConflictDoUpdate({ target: proofs.orderId, set: { status: 'rendering', error: null, updatedAt: new Date() } });
  }

  async proofRendered(tx: Transaction, orderId: string, files: { pdf: Buffer; png: Buffer }, attempts: number): Promise<number> {
    const now = new Date();
    const [row] = await tx
      .insert(proofs)
      .values({ orderId, status: 'ready', version: 1, attempts, pdf: files.pdf, png: files.png, renderedAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: proofs.orderId,
        set: {
          status: 'ready',
          version: sql`${proofs.version} + 1`,
          attempts,
          error: null,
          pdf: files.pdf,
          png: files.png,
          renderedAt: now,
          updatedAt: now,
        },
      })
      .returning({ version: proofs.version });
    return row!.version;
  }

  /** A render asked for is not needed any more: a proof rendered before is the proof again. */
  async proofSettled(db: Executor, orderId: string): Promise<void> {
    await db
      .update(proofs)
      .set({ status: 'ready', updatedAt: new Date() })
      .where(and(eq(proofs.orderId, orderId), eq(proofs.status, 'rendering'), sql`${proofs.version} > 0`));
  }

  /** Orders whose proof waits for a render asked for before `askedBefore`, while it may still change (oldest first). */
  async rendersOwed(db: Executor, askedBefore: Date, limit: number): Promise<string[]> {
    const rows = await db
      .select({ orderId: proofs.orderId })
      .from(proofs)
      .innerJoin(orders, eq(orders.id, proofs.orderId))
      .where(
        and(
          eq(proofs.status, 'rendering'),
          lt(proofs.updatedAt, askedBefore),
          inArray(orders.status, ['paid', 'proof-ready', 'changes-requested']),
        ),
      )
      .orderBy(asc(proofs.updatedAt))
      .limit(limit);
    return rows.map((r) => r.orderId);
  }

  /** An attempt failed: the error shows at once; `final` marks the proof failed (no retry left). */
  async proofAttemptFailed(db: Executor, orderId: string, error: string, attempts: number, final: boolean): Promise<void> {
    await db
      .update(proofs)
      .set({ error, attempts, updatedAt: new Date(), ...(final ? { status: 'failed' as const } : {}) })
      .where(eq(proofs.orderId, orderId));
  }
}
