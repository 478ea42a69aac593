import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SITE_CONFIG_ELEMENT_ID, type CatalogueItem, type Plan, type SiteConfig } from '@digicard/contracts';

/** What the web app's server bundle (apps/web/src/entry-server.tsx, built to apps/web/dist-ssr) exports. */
export interface WebPageRenderer {
  isPrerendered(path: string): boolean;
  renderPage(
    path: string,
    site: SiteConfig,
    catalogue: readonly CatalogueItem[] | null,
    plans?: readonly Plan[] | null,
  ): Promise<{ html: string; title: string | null; description: string | null }>;
}

/** The element id the web app reads the embedded catalogue from (apps/web/src/modules/site/utils/prerendered.ts). */
const CATALOGUE_DATA_ELEMENT_ID = 'catalogue-data';
/** The element id the web app reads the embedded plans from (the same file). */
const PLANS_DATA_ELEMENT_ID = 'plans-data';
const PRERENDERED_ATTRIBUTE = 'data-prerendered';

const json = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');
const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The built web app's index.html with the site configuration embedded (no extra round trip on a phone), and the
 * web app's server renderer for the marketing pages, when the build has one (dist-ssr next to dist).
 */
export class WebIndex {
  readonly html: string | null;

  private constructor(
    html: string | null,
    readonly renderer: WebPageRenderer | null,
    readonly site: SiteConfig,
  ) {
    this.html = html;
  }

  static async load(distDir: string, site: SiteConfig): Promise<WebIndex> {
    const file = join(distDir, 'index.html');
    if (!existsSync(file)) return new WebIndex(null, null, site);
    const tag = `<script type="application/json" id="${SITE_CONFIG_ELEMENT_ID}">${json(site)}</script>`;
    const html = readFileSync(file, 'utf8').replace('</head>', `${tag}</head>`);
    const serverEntry = join(distDir, '..', 'dist-ssr', 'entry-server.js');
    const renderer = existsSync(serverEntry) ? ((await import(pathToFileURL(serverEntry).href)) as WebPageRenderer) : null;
    return new WebIndex(html, renderer, site);
  }

  /**
   * index.html with the page rendered into `#root` (the browser hydrates it), its title and description in the
   * head, and the catalogue and plans it was rendered with (the browser's first render must match).
   */
  page(
    rendered: { html: string; title: string | null; description: string | null },
    catalogue: readonly CatalogueItem[] | null,
    plans: readonly Plan[] | null = null,
  ): string {
    if (this.html === null) throw new Error('The web app has not been built.');
    let html = this.html
      .replace('<div id="root"></div>', () => `<div id="root" ${PRERENDERED_ATTRIBUTE}>${rendered.html}</div>`)
      .replace(/<noscript>[\s\S]*?<\/noscript>/, '');
    if (rendered.title !== null) html = html.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(rendered.title ?? '')}</title>`);
    if (rendered.description !== null) {
      html = html.replace(
        /(<meta\s+name="description"\s+content=")[^"]*"/,
        (_, start: string) => `${start}${escapeHtml(rendered.description ?? '')}"`,
      );
    }
    if (catalogue !== null) {
      html = html.replace(
        '</head>',
        () => `<script type="application/json" id="${CATALOGUE_DATA_ELEMENT_ID}">${json({ items: catalogue })}</script></head>`,
      );
    }
    if (plans !== null) {
      html = html.replace(
        '</head>',
        () => `<script type="application/json" id="${PLANS_DATA_ELEMENT_ID}">${json({ plans })}</script></head>`,
      );
    }
    return html;
  }
}

export const WEB_INDEX = Symbol('WEB_INDEX');
