import { CatalogueListSchema } from '@digicard/contracts';
import { StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { catalogueStore } from './modules/shop/utils/catalogue-store';
import { CATALOGUE_DATA_ELEMENT_ID } from './modules/site/utils/prerendered';
import { readSiteConfig } from './modules/site/utils/site-config';

/** Settles once React has committed the page it was given (hydrated or drawn). */
function Started({ onStarted }: { onStarted: () => void }) {
  useEffect(onStarted, [onStarted]);
  return null;
}

/** The catalogue the page was rendered with, so that the first render matches the server's. */
function primeCatalogue(): void {
  const text = document.getElementById(CATALOGUE_DATA_ELEMENT_ID)?.textContent;
  if (!text) return;
  try {
    const parsed = CatalogueListSchema.safeParse(JSON.parse(text));
    if (parsed.success) catalogueStore.prime(parsed.data.items);
  } catch {
    // Unreadable: the pages read the catalogue themselves.
  }
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
