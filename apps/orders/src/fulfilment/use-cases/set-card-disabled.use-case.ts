import { Inject, Injectable } from '@nestjs/common';
import type { Card } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { CONFIG, DATABASE, ServiceError } from '@digicard/server';
import type { Config } from '../../config.js';
import { toCard } from '../fulfilment.mapping.js';
import { CardsRepository } from '../cards.repository.js';

/** The owner disables a lost card (its `/c/{serial}` then says so instead of opening the profile), or enables it again. */
@Injectable()
export class SetCardDisabled {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(CardsRepository) private readonly cards: CardsRepository,
  ) {}

  async execute(accountId: string, serial: string, disabled: boolean): Promise<Card> {
    const row = await this.db.transaction(async (tx) => {
      const card = await this.cards.cardBySerial(tx, serial);
      if (!card || card.accountId !== accountId) throw ServiceError.notFound('Card not found.');
      return this.cards.setCardDisabled(tx, serial, disabled);
    });
    return toCard(row, this.config.PUBLIC_URL);
  }
}
