import { Inject, Injectable } from '@nestjs/common';
import type { CatalogueItem, CatalogueList } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, ServiceError } from '@digicard/server';
import { toItem } from './catalogue.mapping.js';
import { CatalogueRepository } from './catalogue.repository.js';

/** The shop's cards and specials, as anyone may read them. */
@Injectable()
export class CatalogueQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CatalogueRepository) private readonly catalogue: CatalogueRepository,
  ) {}

  /** Every item, in the shop's order. */
  async list(): Promise<CatalogueList> {
    return { items: (await this.catalogue.list(this.db)).map(toItem) };
  }

  async item(id: string): Promise<CatalogueItem> {
    const row = await this.catalogue.byId(this.db, id);
    if (!row) throw ServiceError.notFound('Card not found');
    return toItem(row);
  }
}
