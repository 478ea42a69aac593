import { CatalogueListSchema, PlanListSchema } from '@digicard/contracts';
import { StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { queryClient } from './modules/api/query-client';
import { setInitialPlans } from './modules/packages/hooks/use-plans';
import { setInitialCatalogue } from './modules/shop/hooks/use-catalogue';
import { CATALOGUE_DATA_ELEMENT_ID, PLANS_DATA_ELEMENT_ID } from './modules/site/utils/prerendered';
import { readSiteConfig } from './modules/site/utils/site-config';

/** Settles once React has committed the page it was given (hydrated or drawn). */
function Started({ onStarted }: { onStarted: () => void }) {
  useEffect(onStarted, [onStarted]);
  return null;
}

/**
 * The catalogue and the plans the page was rendered with, as their queries' initial data: no request for them, and the
 * first render matches the server's.
 */
function primeCatalogue(): void {
  const embedded = (id: string): unknown => {
    const text = document.getElementById(id)?.textContent;
    try {
      return text ? JSON.parse(text) : null;
    } catch {
      return null; // Unreadable: the pages read it themselves.
    }
  };
  const catalogue = CatalogueListSchema.safeParse(embedded(CATALOGUE_DATA_ELEMENT_ID));
  if (catalogue.success) setInitialCatalogue(queryClient, catalogue.data.items);
  const plans = PlanListSchema.safeParse(embedded(PLANS_DATA_ELEMENT_ID));
  if (plans.success) setInitialPlans(queryClient, plans.data.plans);
}

/**
 * The whole app: hydrates a page the gateway rendered (the marketing pages), or draws the others. Loaded by
 * boot.ts when it is needed.
 */
export function startApp(prerendered: boolean): Promise<void> {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  const siteConfig = readSiteConfig();
  return new Promise((resolve) => {
    const app = (
      <StrictMode>
        <App siteConfig={siteConfig}>
          <Started onStarted={resolve} />
        </App>
      </StrictMode>
    );
    if (prerendered) {
      primeCatalogue();
      hydrateRoot(root, app, {
        onRecoverableError: (error) => console.error('The page was drawn again in the browser.', error),
      });
    } else {
      createRoot(root).render(app);
    }
  });
}
