import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Events } from '@digicard/contracts';
import { OnEvent, type EventContext } from '@digicard/server';
import { cardTarget, recordCardsAssigned } from '../card-events.js';
import { CardsRepository } from '../cards.repository.js';
import { TeamMembersRepository } from '../team-members.repository.js';

type Data<E extends { data: z.ZodType }> = z.output<E['data']>;

/**
 * Orders' own record of the teams (the teams service owns them), for reassigning cards: who may be given a team's
 * card, and whose cards a leader may move. A rep who leaves takes no card with them: a card pointing at them points
 * at its buyer again (recorded in its history, by nobody: the service did it), and the leader may hand it to another
 * rep (`orders.cards.assigned` tells profiles). Each handler runs once per event (processed_messages); the added and
 * removed events may arrive in any order.
 */
@Injectable()
export class TeamCards {
  constructor(
    @Inject(CardsRepository) private readonly cards: CardsRepository,
    @Inject(TeamMembersRepository) private readonly teamMembers: TeamMembersRepository,
  ) {}

  @OnEvent(Events.teamMemberAdded)
  async added(data: Data<typeof Events.teamMemberAdded>, { tx }: EventContext): Promise<void> {
    await this.teamMembers.addTeamMember(tx, data.memberAccountId, data.leaderAccountId);
  }

  @OnEvent(Events.teamMemberRemoved)
  async removed(data: Data<typeof Events.teamMemberRemoved>, { tx }: EventContext): Promise<void> {
    const at = new Date(data.removedAt);
    await this.teamMembers.removeTeamMember(tx, data.memberAccountId, data.leaderAccountId, at);
    const returned = [];
    for (const card of await this.cards.cardsAssignedTo(tx, data.memberAccountId))
      returned.push(await this.cards.assignCard(tx, card, null, null, at));
    if (returned.length > 0) await recordCardsAssigned(tx, returned.map(cardTarget), at);
  }
}
