import { Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Material } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { cardAssignments, cards } from '../db/schema.js';

type Executor = Database | Transaction;
export type CardRow = typeof cards.$inferSelect;

/** The SQL of the cards: printed cards, their NFC UIDs, who each is assigned to. */
@Injectable()
export class CardsRepository {
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
}
