import { Injectable } from '@nestjs/common';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { catalogueItems } from '../db/schema.js';

type Executor = Database | Transaction;
export type CatalogueRow = typeof catalogueItems.$inferSelect;

@Injectable()
export class CatalogueRepository {
  list(db: Executor): Promise<CatalogueRow[]> {
    return db.select().from(catalogueItems).orderBy(asc(catalogueItems.sortOrder));
  }

  async byId(db: Executor, id: string): Promise<CatalogueRow | null> {
    const [row] = await db.select().from(catalogueItems).where(eq(catalogueItems.id, id)).limit(1);
    return row ?? null;
  }

  /** The items with these ids (those that exist), for pricing an order. */
  byIds(db: Executor, ids: string[]): Promise<CatalogueRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db.select().from(catalogueItems).where(inArray(catalogueItems.id, ids));
  }
}
