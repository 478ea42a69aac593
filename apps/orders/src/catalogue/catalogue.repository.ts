import { Inject, Injectable } from '@nestjs/common';
import { asc, eq } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import { DATABASE } from '@digicard/server';
import { catalogueItems } from '../db/schema.js';

export type CatalogueRow = typeof catalogueItems.$inferSelect;

@Injectable()
export class CatalogueRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  list(): Promise<CatalogueRow[]> {
    return this.db.select().from(catalogueItems).orderBy(asc(catalogueItems.sortOrder));
  }

  async get(id: string): Promise<CatalogueRow | null> {
    const [row] = await this.db.select().from(catalogueItems).where(eq(catalogueItems.id, id)).limit(1);
    return row ?? null;
  }
}
