import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Events } from '@digicard/contracts';
import { OnEvent, type EventContext } from '@digicard/server';
import { AnalyticsRepository } from './analytics.repository.js';

type Data<E extends { data: z.ZodType }> = z.output<E['data']>;

/**
 * Profiles' copy of which page each printed card opens (orders owns the cards): views through `?card=` are counted
 * only for a card of the page viewed. Runs once per event (processed_messages); an assignment older than the one kept
 * changes nothing, whatever order the events arrive in.
 */
@Injectable()
export class CardEvents {
  constructor(@Inject(AnalyticsRepository) private readonly analytics: AnalyticsRepository) {}

  @OnEvent(Events.cardsAssigned)
  async assigned(data: Data<typeof Events.cardsAssigned>, { tx }: EventContext): Promise<void> {
    await this.analytics.assignCards(tx, data.cards, new Date(data.at));
  }
}
