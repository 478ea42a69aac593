import { Injectable } from '@nestjs/common';
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Material, OrderActor, OrderStatus } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { cardAssignments, cards, customers, orderHistory, orders, proofs, teamMembers } from '../db/schema.js';

type Executor = Database | Transaction;
export type CardRow = typeof cards.$inferSelect;
export type HistoryRow = typeof orderHistory.$inferSelect;
export type ProofRow = Omit<typeof proofs.$inferSelect, 'pdf' | 'png'>;
export type CustomerRow = typeof customers.$inferSelect;

const proofColumns = {
  orderId: proofs.orderId,
  status: proofs.status,
  version: proofs.version,
  attempts: proofs.attempts,
  error: proofs.error,
  renderedAt: proofs.renderedAt,
  updatedAt: proofs.updatedAt,
};

/** The only place with SQL for the print side of orders: history, proofs, cards and the customers' projection. */
@Injectable()
export class FulfilmentRepository {
  async setStatus(
    tx: Transaction,
    orderId: string,
    from: OrderStatus,
    to: OrderStatus,
    shipment?: { courier: string; trackingNumber: string },
  ) {
    const [row] = await tx
      .update(orders)
      .set({
        status: to,
        updatedAt: new Date(),
        ...(shipment ? { courier: shipment.courier, trackingNumber: shipment.trackingNumber } : {}),
      })
      .where(and(eq(orders.id, orderId), eq(orders.status, from)))
      .returning();
    if (!row) throw new Error(`order ${orderId} was not ${from}`);
    return row;
  }

  async addHistory(
    tx: Transaction,
    entry: {
      orderId: string;
      fromStatus: OrderStatus | null;
      toStatus: OrderStatus;
      actor: OrderActor;
      actorAccountId: string | null;
      note: string | null;
      at: Date;
    },
  ): Promise<void> {
    await tx.insert(orderHistory).values(entry);
  }

  async historyOf(db: Executor, orderIds: string[]): Promise<HistoryRow[]> {
    if (orderIds.length === 0) return [];
    return db
      .select()
      .from(orderHistory)
      .where(inArray(orderHistory.orderId, orderIds))
      .orderBy(asc(orderHistory.orderId), asc(orderHistory.id));
  }

  // ------------------------------------------------------------------------------------------------- cards

  /** Inserts a card unless its serial is taken (then false: the caller draws another). */
  async insertCard(
    tx: Transaction,
    card: { serial: string; orderId: string; accountId: string; position: number; itemId: string; material: Material; colour: string },
  ): Promise<boolean> {
    const rows = await tx.insert(cards).values(card).onConflictDoNothing({ target: cards.serial }).returning({ serial: cards.serial });
    return rows.length === 1;
  }

  async cardsOf(db: Executor, orderIds: string[]): Promise<CardRow[]> {
    if (orderIds.length === 0) return [];
    return db.select().from(cards).where(inArray(cards.orderId, orderIds)).orderBy(asc(cards.orderId), asc(cards.position));
  }

  async cardBySerial(db: Executor, serial: string): Promise<CardRow | null> {
    const [row] = await db.select().from(cards).where(eq(cards.serial, serial)).limit(1);
    return row ?? null;
  }

  async setCardDisabled(tx: Transaction, serial: string, disabled: boolean): Promise<CardRow> {
    const [row] = await tx
      .update(cards)
      .set({ disabledAt: disabled ? sql`coalesce(${cards.disabledAt}, now())` : null })
      .where(eq(cards.serial, serial))
      .returning();
    return row!;
  }

  /** Points the card at a rep (or back at its buyer: null) and records it in the card's history. */
  async assignCard(tx: Transaction, card: CardRow, toAccountId: string | null, byAccountId: string | null, at: Date): Promise<CardRow> {
    const [row] = await tx.update(cards).set({ assignedAccountId: toAccountId }).where(eq(cards.serial, card.serial)).returning();
    await tx.insert(cardAssignments).values({ serial: card.serial, fromAccountId: card.assignedAccountId, toAccountId, byAccountId, at });
    return row!;
  }

  async lockCard(tx: Transaction, serial: string): Promise<CardRow | null> {
    const [row] = await tx.select().from(cards).where(eq(cards.serial, serial)).for('update').limit(1);
    return row ?? null;
  }

  /** The cards pointing at this account (a rep who is leaving). */
  cardsAssignedTo(tx: Transaction, accountId: string): Promise<CardRow[]> {
    return tx.select().from(cards).where(eq(cards.assignedAccountId, accountId)).for('update');
  }

  assignmentsOf(db: Executor, serial: string) {
    return db
      .select()
      .from(cardAssignments)
      .where(eq(cardAssignments.serial, serial))
      .orderBy(asc(cardAssignments.at), asc(cardAssignments.id));
  }

  // ------------------------------------------------------------------------------------------- team members

  /** The leader of a current rep, or null (not a rep, or one who left). */
  async leaderOf(db: Executor, memberAccountId: string): Promise<string | null> {
    const [row] = await db
      .select({ leader: teamMembers.leaderAccountId })
      .from(teamMembers)
      .where(and(eq(teamMembers.memberAccountId, memberAccountId), isNull(teamMembers.removedAt)))
      .limit(1);
    return row?.leader ?? null;
  }

  /** The leader an account was ever a rep of (also after it left: its cards stay with that team), or null. */
  async teamOf(db: Executor, memberAccountId: string): Promise<string | null> {
    const [row] = await db
      .select({ leader: teamMembers.leaderAccountId })
      .from(teamMembers)
      .where(eq(teamMembers.memberAccountId, memberAccountId))
      .limit(1);
    return row?.leader ?? null;
  }

  /** A rep joined (kept as removed when the removal arrived first: a rep's account never rejoins). */
  async addTeamMember(tx: Transaction, memberAccountId: string, leaderAccountId: string): Promise<void> {
    await tx
      .insert(teamMembers)
      .values({ memberAccountId, leaderAccountId })
      .onConflictDoUpdate({ target: teamMembers.memberAccountId, set: { leaderAccountId } });
  }

  async removeTeamMember(tx: Transaction, memberAccountId: string, leaderAccountId: string, at: Date): Promise<void> {
    await tx
      .insert(teamMembers)
      .values({ memberAccountId, leaderAccountId, removedAt: at })
      .onConflictDoUpdate({ target: teamMembers.memberAccountId, set: { removedAt: at } });
  }

  /** Records the chip's UID; false when another card already has it (a chip is encoded once). */
  async setNfcUid(tx: Transaction, serial: string, nfcUid: string): Promise<boolean> {
    const [taken] = await tx
      .select({ serial: cards.serial })
      .from(cards)
      .where(and(eq(cards.nfcUid, nfcUid), ne(cards.serial, serial)))
      .limit(1);
    if (taken) return false;
    await tx.update(cards).set({ nfcUid }).where(eq(cards.serial, serial));
    return true;
  }

  async cardsWithoutUid(tx: Transaction, orderId: string): Promise<number> {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(cards)
      .where(and(eq(cards.orderId, orderId), isNull(cards.nfcUid)));
    return row?.n ?? 0;
  }

  // ------------------------------------------------------------------------------------------------ proofs

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

  // --------------------------------------------------------------------------------------------- customers

  async upsertCustomer(db: Executor, customer: { accountId: string; username: string; name: string }): Promise<void> {
    await db
      .insert(customers)
      .values(customer)
      .onConflictDoUpdate({
        target: customers.accountId,
        set: { username: customer.username, name: customer.name, updatedAt: new Date() },
      });
  }

  /** profile.updated carries the (possibly new) username; the name stays until the next render reads it. */
  async setCustomerUsername(tx: Transaction, accountId: string, username: string): Promise<void> {
    await tx.update(customers).set({ username, updatedAt: new Date() }).where(eq(customers.accountId, accountId));
  }

  async customersOf(db: Executor, accountIds: string[]): Promise<CustomerRow[]> {
    if (accountIds.length === 0) return [];
    return db.select().from(customers).where(inArray(customers.accountId, accountIds));
  }

  // ------------------------------------------------------------------------------------------------ orders

  /** Orders of the account whose proof may still change (a profile change renders them again). */
  async awaitingApprovalOf(tx: Transaction, accountId: string): Promise<string[]> {
    const rows = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.accountId, accountId), inArray(orders.status, ['paid', 'proof-ready', 'changes-requested'])));
    return rows.map((r) => r.id);
  }

  /** The print team's queue: every order that was paid (not one awaiting payment, nor one cancelled unpaid), newest first. */
  async printQueue(db: Executor, limit: number) {
    return db.select().from(orders).where(isNotNull(orders.paidAt)).orderBy(desc(orders.paidAt), desc(orders.id)).limit(limit);
  }

  /** Paid orders whose proof failed to render after its retries, newest failure first (the staff console's view). */
  async failedProofOrders(db: Executor, limit: number) {
    const rows = await db
      .select({ order: orders })
      .from(orders)
      .innerJoin(proofs, eq(proofs.orderId, orders.id))
      .where(and(eq(proofs.status, 'failed'), isNotNull(orders.paidAt)))
      .orderBy(desc(proofs.updatedAt), desc(orders.id))
      .limit(limit);
    return rows.map((r) => r.order);
  }
}
