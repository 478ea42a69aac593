import { randomUUID } from 'node:crypto';
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CataloguePages, ErrorCode, ImplementedWebRoutes, Rpc, isReservedUsername, type ViewSource } from '@digicard/contracts';
import { clientScript, renderProfilePage } from '@digicard/profile-view';
import { ApiHttpException, CONFIG } from '@digicard/server';
import type { Config } from '../config.js';
import { PublicPageService } from '../profiles/public-page.service.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import type { SessionRequest } from '../session/session.middleware.js';
import { WEB_INDEX, WebIndex } from './web-index.js';

const SEGMENT = /^\/([A-Za-z0-9-]{1,64})$/;
const OWNER_NOTICE =
  'Only you can see this page. To share it, verify your email address and keep your profile public (Settings in the dashboard).';

const pages = new Set<string>(ImplementedWebRoutes);
const CATALOGUE_TTL_MS = 60_000;

/** Every other GET is a page of the web app: 200 for the pages it has, 404 (same app, not-found page) otherwise. */
@Controller()
export class WebController {
  private catalogue: { ids: Map<string, string>; at: number } | null = null;

  constructor(
    @Inject(WEB_INDEX) private readonly index: WebIndex,
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(PublicPageService) private readonly publicPages: PublicPageService,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** The public page's small script; its URL carries a hash of its content, so it is cached for a year. */
  @Get('profile-assets/profile-page.js')
  script(@Res() res: Response): void {
    res.set('Cache-Control', 'public, max-age=31536000, immutable').type('application/javascript').sendFile(clientScript().path);
  }

  @Get('{*path}')
  async page(@Req() req: SessionRequest, @Res() res: Response): Promise<void> {
    if (req.path === '/api' || req.path.startsWith('/api/')) {
      throw new ApiHttpException({ statusCode: 404, code: ErrorCode.NotFound, message: 'No such API route.' });
    }
    if (this.index.html === null) {
      res.status(503).type('text').send('The web app has not been built yet: run `npm run build` (npm start does it).');
      return;
    }
    const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
    const segment = SEGMENT.exec(path)?.[1];
    // Reserved names (the site's own paths) are never usernames: no need to ask the profiles service.
    if (segment && !pages.has(path) && !isReservedUsername(segment) && (await this.profilePage(segment, req, res))) return;
    const found = pages.has(path) || (await this.isCataloguePage(path));
    res.status(found ? 200 : 404).type('html').set('Cache-Control', 'no-cache').send(this.index.html);
  }

  /**
   * `/{username}`: the public profile, rendered here with its data in it. An account id or a vanity path
   * redirects to the username's address. Returns false when there is no such profile (the app's not-found page).
   */
  private async profilePage(segment: string, req: SessionRequest, res: Response): Promise<boolean> {
    const username = segment.toLowerCase();
    const src = req.query['src'];
    const source: ViewSource = src === 'qr' || src === 'nfc' ? src : 'link';
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    if (segment !== username) {
      // Addresses are lowercase: capitals typed from a printed card lead to the one address.
      res.redirect(301, `/${username}${query}`);
      return true;
    }
    const base = this.config.PUBLIC_URL;
    const page = await this.publicPages.page(username, req.session?.data.accountId ?? null, source, (result) =>
      renderProfilePage({
        profile: result.profile,
        brandName: this.config.BRAND_NAME,
        siteUrl: base,
        profileUrl: `${base}/${username}`,
        urls: { vcard: `/api/profiles/${username}/vcard`, leads: `/api/profiles/${username}/leads`, register: '/register' },
        scriptUrl: `/profile-assets/profile-page.js?v=${clientScript().hash}`,
        ...(result.shareable ? {} : { notice: OWNER_NOTICE }),
      }),
    );
    if (page) {
      res.status(200).type('html').set('Cache-Control', page.isOwner ? 'private, no-cache' : 'no-cache').vary('Accept-Encoding');
      if (page.gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        res.set('Content-Encoding', 'gzip').send(page.gzip);
      } else {
        res.send(page.html);
      }
      return true;
    }
    const target = await this.publicPages.resolve(segment);
    if (target && target !== segment) {
      res.redirect(301, `/${target}${query}`);
      return true;
    }
    return false;
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
