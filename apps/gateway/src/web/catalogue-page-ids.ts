import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CataloguePages, Rpc, type CatalogueItem } from '@digicard/contracts';
import { GatewayRpc } from '../rpc/rpc.client.js';

const TTL_MS = 60_000;

/**
 * The catalogue as the web pages need it: which items have a page (`/accessories/<id>`, `/specials/<id>`), so that
 * the web app's fallback answers 404 for an id the catalogue does not have, and the items the marketing pages are
 * rendered with (prices as orders has them). Asked of orders at most once a minute.
 */
@Injectable()
export class CataloguePageIds {
  private catalogue: { items: readonly CatalogueItem[]; ids: Map<string, string>; at: number } | null = null;

  constructor(@Inject(GatewayRpc) private readonly rpc: GatewayRpc) {}

  /** Whether the path is the page of an item the catalogue has; if orders is down, say yes. */
  async exists(path: string): Promise<boolean> {
    const page = CataloguePages.find((p) => path.startsWith(p.prefix));
    if (!page) return false;
    const id = path.slice(page.prefix.length);
    if (!/^[a-z0-9-]{1,64}$/.test(id)) return false;
    try {
      return (await this.read()).ids.get(id) === page.kind;
    } catch {
      return true;
    }
  }

  /**
   * The items, the same array until the catalogue is read again (a rendered page can be kept while it is the
   * same); null when orders does not answer.
   */
  async items(): Promise<readonly CatalogueItem[] | null> {
    try {
      return (await this.read()).items;
    } catch {
      return null;
    }
  }

  private async read(): Promise<{ items: readonly CatalogueItem[]; ids: Map<string, string> }> {
    if (!this.catalogue || Date.now() - this.catalogue.at > TTL_MS) {
      const { items } = await this.rpc.call(Rpc.listCatalogue, {}, { requestId: randomUUID(), userId: null, role: null, ip: null });
      this.catalogue = { items, ids: new Map(items.map((i) => [i.id, i.kind])), at: Date.now() };
    }
    return this.catalogue;
  }
}
