import { Inject, Injectable } from '@nestjs/common';
import { CardMessages, ErrorCode, type Card } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { OutboxRelay } from '@digicard/messaging';
import { CONFIG, DATABASE, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import type { Config } from '../../config.js';
import { cardTarget, recordCardsAssigned } from '../card-events.js';
import { toCard } from '../fulfilment.mapping.js';
import { CardsRepository } from '../cards.repository.js';
import { TeamMembersRepository } from '../team-members.repository.js';

const CARD_NOT_FOUND = 'Card not found.';

/**
 * A team leader points one of the team's printed cards at one of their reps without reprinting (issue 10 "Card
 * lifecycle"): `/c/{serial}` then opens the rep's page. The team's cards are the ones the leader bought and the ones
 * their reps bought (also a rep who left: their card can be handed to another rep); the card may point at the leader or at one of their current reps, nobody else (orders'
 * own record of the teams, from the teams service's events). Anyone else's card is "not found", as for the owner's
 * other card actions. Each move is kept in the card's history (from, to, by whom, when) and announced
 * (`orders.cards.assigned`: profiles counts the card's views on its new page); pointing a card where it already points
 * changes and records nothing.
 */
@Injectable()
export class AssignCard {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(CardsRepository) private readonly cards: CardsRepository,
    @Inject(TeamMembersRepository) private readonly teamMembers: TeamMembersRepository,
  ) {}

  async execute(leaderId: string, serial: string, toAccountId: string): Promise<Card> {
    const row = await this.db.transaction(async (tx) => {
      const card = await this.cards.lockCard(tx, serial);
      if (!card) throw ServiceError.notFound(CARD_NOT_FOUND);
      const teamOfCard = card.accountId === leaderId ? leaderId : await this.teamMembers.teamOf(tx, card.accountId);
      if (teamOfCard !== leaderId) throw ServiceError.notFound(CARD_NOT_FOUND);
      const inTeam = toAccountId === leaderId || (await this.teamMembers.leaderOf(tx, toAccountId)) === leaderId;
      if (!inTeam) {
        throw new ServiceError({
          statusCode: 400,
          code: ErrorCode.ValidationFailed,
          message: CardMessages.notInTeam,
          fieldErrors: { accountId: [CardMessages.notInTeam] },
        });
      }
      // Stored as null when it points at the buyer again: the card's own account needs no assignment.
      const target = toAccountId === card.accountId ? null : toAccountId;
      if (target === card.assignedAccountId) return card;
      const at = new Date();
      const moved = await this.cards.assignCard(tx, card, target, leaderId, at);
      await recordCardsAssigned(tx, [cardTarget(moved)], at);
      return moved;
    });
    this.relay?.kick();
    return toCard(row, this.config.PUBLIC_URL);
  }
}
