import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ErrorCode, ImplementedWebRoutes } from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';
import { CataloguePageIds } from './catalogue-page-ids.js';
import { WEB_INDEX, WebIndex } from './web-index.js';

const pages = new Set<string>(ImplementedWebRoutes);

/** Every GET nothing else answered: a page of the web app, 200 for the pages it has and 404 (its not-found page) otherwise. */
@Injectable()
export class WebApp {
  constructor(
    @Inject(WEB_INDEX) private readonly index: WebIndex,
    @Inject(CataloguePageIds) private readonly catalogue: CataloguePageIds,
  ) {}

  async serve(req: Request, res: Response): Promise<void> {
    if (req.path === '/api' || req.path.startsWith('/api/')) {
      throw new ApiHttpException({ statusCode: 404, code: ErrorCode.NotFound, message: 'No such API route.' });
    }
    if (this.index.html === null) {
      res.status(503).type('text').send('The web app has not been built yet: run `npm run build` (npm start does it).');
      return;
    }
    const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
    const found = pages.has(path) || (await this.catalogue.exists(path));
    res.status(found ? 200 : 404).type('html').set('Cache-Control', 'no-cache').send(this.index.html);
  }
}
