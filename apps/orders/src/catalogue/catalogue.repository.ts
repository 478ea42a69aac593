import { Injectable } from '@nestjs/common';
import { asc, eq } from 'drizzle-orm';
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
}
