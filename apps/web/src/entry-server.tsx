import { WebRoutes, type CatalogueItem, type Plan, type SiteConfig } from '@digicard/contracts';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { App } from './app/app';
import { newQueryClient } from './modules/api/query-client';
import { setInitialPlans } from './modules/packages/hooks/use-plans';
import { setInitialCatalogue } from './modules/shop/hooks/use-catalogue';
import { serverPageMeta } from './modules/site/hooks/use-page-meta';

/**
 * The server side of the marketing pages: the gateway imports the bundle Vite builds from this file
 * (`dist-ssr/entry-server.js`, see vite.config.ts) and renders these pages into index.html, so that their content is
 * in the HTML at first byte. The browser then runs only the small first-load script (boot.ts) and hydrates the same
 * tree with the full app when the visitor first presses a button or a form field.
 */

/**
 * The marketing pages, rendered on the server: what they show is the same for every visitor. So are the catalogue's
 * item pages and the not-found pages (any path that is no page of the app). Every other page of the app is drawn by
 * the browser, because what it shows depends on who is signed in, on the browser's basket or on a link's token: a
 * page added to the app later is drawn by the browser until it is listed here.
 */
const MARKETING_PAGES: ReadonlySet<string> = new Set([
  WebRoutes.home,
  WebRoutes.pricing,
  WebRoutes.accessories,
  WebRoutes.contact,
  WebRoutes.terms,
  WebRoutes.tedxGeorge,
]);
const APP_PAGES: ReadonlySet<string> = new Set(Object.values(WebRoutes));

/** Whether the gateway renders this (normalised) path on the server. */
export function isPrerendered(path: string): boolean {
  return MARKETING_PAGES.has(path) || !APP_PAGES.has(path);
}

export interface RenderedPage {
  /** The markup that goes inside `<div id="root">`. */
  readonly html: string;
  readonly title: string | null;
  readonly description: string | null;
}

/**
 * Renders one page as the browser's first render will see it: session still loading, basket empty, the catalogue
 * the gateway read from orders and the plans it read from payments (or, when one did not answer, still loading: the
 * page then reads it itself), each the initial data of its query in a client of the page's own. Waits for the pages that load on demand (React.lazy), so their content is in the HTML too.
 */
export async function renderPage(
  path: string,
  site: SiteConfig,
  catalogue: readonly CatalogueItem[] | null,
  plans: readonly Plan[] | null = null,
): Promise<RenderedPage> {
  const queryClient = newQueryClient();
  if (catalogue) setInitialCatalogue(queryClient, catalogue);
  if (plans) setInitialPlans(queryClient, plans);
  serverPageMeta.current = null;
  const { prelude } = await prerender(
    <StrictMode>
      <App siteConfig={site} location={path} queryClient={queryClient} />
    </StrictMode>,
  );
  const html = await new Response(prelude).text();
  const meta = serverPageMeta.current as { title: string; description: string } | null;
  return { html, title: meta?.title ?? null, description: meta?.description ?? null };
}
