import type { SiteConfig } from '@digicard/contracts';
import { BrowserRouter } from 'react-router';
import { SiteConfigContext } from '../modules/site/hooks/use-site-config';
import { AppRoutes } from './router';

export function App({ siteConfig }: { siteConfig: SiteConfig }) {
  return (
    <SiteConfigContext value={siteConfig}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </SiteConfigContext>
  );
}
