import { randomUUID } from 'node:crypto';
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CataloguePages, ErrorCode, ImplementedWebRoutes, Rpc } from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { WEB_INDEX, WebIndex } from './web-index.js';

const pages = new Set<string>(ImplementedWebRoutes);
const CATALOGUE_TTL_MS = 60_000;

/** Every other GET is a page of the web app: 200 for the pages it has, 404 (same app, not-found page) otherwise. */
@Controller()
export class WebController {
  private catalogue: { ids: Map<string, string>; at: number } | null = null;

  constructor(
    @Inject(WEB_INDEX) private readonly index: WebIndex,
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
  ) {}

  @Get('{*path}')
  async page(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (req.path === '/api' || req.path.startsWith('/api/')) {
      throw new ApiHttpException({ statusCode: 404, code: ErrorCode.NotFound, message: 'No such API route.' });
    }
    if (this.index.html === null) {
      res.status(503).type('text').send('The web app has not been built yet: run `npm run build` (npm start does it).');
      return;
    }
    const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
    const found = pages.has(path) || (await this.isCataloguePage(path));
    res.status(found ? 200 : 404).type('html').set('Cache-Control', 'no-cache').send(this.index.html);
  }

  /** `/accessories/<id>` and `/specials/<id>` exist when the catalogue has that item; if orders is down, say yes. */
  private async isCataloguePage(path: string): Promise<boolean> {
    const page = CataloguePages.find((p) => path.startsWith(p.prefix));
    if (!page) return false;
    const id = path.slice(page.prefix.length);
    if (!/^[a-z0-9-]{1,64}$/.test(id)) return false;
    try {
      if (!this.catalogue || Date.now() - this.catalogue.at > CATALOGUE_TTL_MS) {
        const { items } = await this.rpc.call(Rpc.listCatalogue, {}, { requestId: randomUUID(), userId: null, role: null, ip: null });
        this.catalogue = { ids: new Map(items.map((i) => [i.id, i.kind])), at: Date.now() };
      }
      return this.catalogue.ids.get(id) === page.kind;
    } catch {
      return true;
    }
  }
}
