import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CataloguePages, ErrorCode, ImplementedWebRoutes, type CatalogueItem, type Plan } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { ApiHttpException, LOGGER } from '@digicard/server';
import { CataloguePageIds } from './catalogue-page-ids.js';
import { ServedPlans } from './served-plans.js';
import { WEB_INDEX, WebIndex } from './web-index.js';

const pages = new Set<string>(ImplementedWebRoutes);

/**
 * The path a missing page is rendered as, one per kind of not-found page, so that the pages kept rendered stay a
 * few (the site's pages and the catalogue's items) whatever paths are asked for: an unknown item in a catalogue
 * section ("Card not found", that section's link marked current) or any other unknown path (the not-found page).
 */
function missingPagePath(path: string): string {
  const section = CataloguePages.find((p) => path.startsWith(p.prefix) && !path.slice(p.prefix.length).includes('/'));
  return section ? `${section.prefix}~` : '/~';
}

/**
 * Every GET nothing else answered: a page of the web app, 200 for the pages it has and 404 (its not-found page)
 * otherwise. The marketing pages come rendered (the web app's server bundle, with the catalogue as orders has it and
 * the plans as payments serves them), kept per path while both are the same; the other pages are index.html, which
 * the browser draws.
 */
@Injectable()
export class WebApp {
  private readonly rendered = new Map<string, { catalogue: readonly CatalogueItem[]; plans: readonly Plan[]; html: string }>();
  /** One render at a time: the web app's stores are module state in the server bundle. */
  private rendering: Promise<unknown> = Promise.resolve();

  constructor(
    @Inject(WEB_INDEX) private readonly index: WebIndex,
    @Inject(CataloguePageIds) private readonly catalogue: CataloguePageIds,
    @Inject(ServedPlans) private readonly plans: ServedPlans,
    @Inject(LOGGER) private readonly logger: Logger,
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
    const html = (await this.prerendered(found ? path : missingPagePath(path))) ?? this.index.html;
    res
      .status(found ? 200 : 404)
      .type('html')
      .set('Cache-Control', 'no-cache')
      .send(html);
  }

  /** The marketing page rendered into index.html, or null for the pages the browser draws (or a failed render). */
  private async prerendered(path: string): Promise<string | null> {
    const renderer = this.index.renderer;
    if (!renderer?.isPrerendered(path)) return null;
    const [catalogue, plans] = await Promise.all([this.catalogue.items(), this.plans.list()]);
    const kept = this.rendered.get(path);
    if (kept && kept.catalogue === catalogue && kept.plans === plans) return kept.html;
    const render = this.rendering.then(() => renderer.renderPage(path, this.index.site, catalogue, plans));
    this.rendering = render.catch(() => undefined);
    try {
      const html = this.index.page(await render, catalogue, plans);
      if (catalogue !== null && plans !== null) this.rendered.set(path, { catalogue, plans, html });
      return html;
    } catch (error) {
      this.logger.error({ err: error, path }, 'a marketing page failed to render; sent the app shell');
      return null;
    }
  }
}
