import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { ImplementedWebRoutes, isReservedUsername } from '@digicard/contracts';
import { clientScript, renderProfilePage } from '@digicard/profile-view';
import { CONFIG } from '@digicard/server';
import type { Config } from '../config.js';
import { PageAnalytics, visitOf } from '../analytics/page-analytics.js';
import { PageCache } from '../profiles/page-cache.js';
import { PublicPageService } from '../profiles/public-page.service.js';
import type { SessionRequest } from '../session/session.middleware.js';

const SEGMENT = /^\/([A-Za-z0-9-]{1,64})$/;
const OWNER_NOTICE =
  'Only you can see this page. To share it, verify your email address and keep your profile public (Settings in the dashboard).';
const pages = new Set<string>(ImplementedWebRoutes);

/**
 * `/{username}`: the public profile, rendered here with its data in it. Capitals, an account id or a vanity path
 * redirect (301) to the username's address, keeping the query. A path of the site, a reserved name, or a segment
 * that names no profile is not one: the web app answers it (its pages, or its not-found page).
 */
@Injectable()
export class PublicProfilePage {
  constructor(
    @Inject(PublicPageService) private readonly publicPages: PublicPageService,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(PageAnalytics) private readonly analytics: PageAnalytics,
  ) {}

  /** Answers the request and returns true, or returns false when the path is not a profile's. */
  async serve(req: SessionRequest, res: Response): Promise<boolean> {
    const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
    const segment = SEGMENT.exec(path)?.[1];
    // Reserved names (the site's own paths) are never usernames: no need to ask the profiles service.
    if (!segment || pages.has(path) || isReservedUsername(segment)) return false;
    const username = segment.toLowerCase();
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    if (segment !== username) {
      // Addresses are lowercase: capitals typed from a printed card lead to the one address.
      res.redirect(301, `/${username}${query}`);
      return true;
    }
    if (await this.render(username, req, res)) return true;
    const target = await this.publicPages.resolve(segment);
    if (target && target !== segment) {
      res.redirect(301, `/${target}${query}`);
      return true;
    }
    return false;
  }

  private async render(username: string, req: SessionRequest, res: Response): Promise<boolean> {
    const base = this.config.PUBLIC_URL;
    const page = await this.publicPages.page(username, req.session?.data.accountId ?? null, null, (result) =>
      renderProfilePage({
        profile: result.profile,
        brandName: this.config.BRAND_NAME,
        siteUrl: base,
        profileUrl: `${base}/${username}`,
        urls: {
          vcard: `/api/profiles/${username}/vcard`,
          leads: `/api/profiles/${username}/leads`,
          register: '/register',
          clicks: `/api/profiles/${username}/clicks`,
        },
        scriptUrl: `/profile-assets/profile-page.js?v=${clientScript().hash}`,
        ...(result.shareable ? {} : { notice: OWNER_NOTICE }),
      }),
    );
    if (!page) return false;
    if (!page.isOwner) this.analytics.countView(visitOf(req), username);
    res
      .status(200)
      .type('html')
      .set('Cache-Control', page.isOwner ? 'private, no-cache' : 'no-cache')
      .vary('Accept-Encoding');
    const { cached } = page;
    if (!cached) {
      res.send(page.html);
      return true;
    }
    // Express answers 304 by itself when If-None-Match matches this ETag (a repeat visit downloads nothing).
    res.set('ETag', cached.etag);
    if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      res.set('Content-Encoding', 'gzip').send(cached.gzip);
    } else {
      res.send(PageCache.html(cached));
    }
    return true;
  }
}
