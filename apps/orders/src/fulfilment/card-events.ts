import { CARDS_PER_ASSIGNED_EVENT, Events } from '@digicard/contracts';
import { recordEvent, type Transaction } from '@digicard/messaging';
import { outbox } from '../db/schema.js';

/** A card and the account whose page it opens now: the rep it is assigned to, else its buyer. */
export interface CardTarget {
  serial: string;
  accountId: string;
}

/** The page a card row opens. */
export const cardTarget = (card: { serial: string; accountId: string; assignedAccountId: string | null }): CardTarget => ({
  serial: card.serial,
  accountId: card.assignedAccountId ?? card.accountId,
});

/**
 * Records `orders.cards.assigned` for these cards in the caller's transaction (in parts of at most
 * `CARDS_PER_ASSIGNED_EVENT`): profiles counts views through a card only on the page it opens.
 */
export async function recordCardsAssigned(tx: Transaction, cards: CardTarget[], at: Date): Promise<void> {
  for (let i = 0; i < cards.length; i += CARDS_PER_ASSIGNED_EVENT) {
    await recordEvent(tx, outbox, Events.cardsAssigned, { cards: cards.slice(i, i + CARDS_PER_ASSIGNED_EVENT), at: at.toISOString() });
  }
}
