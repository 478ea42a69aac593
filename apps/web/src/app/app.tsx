import type { SiteConfig } from '@digicard/contracts';
import { BrowserRouter } from 'react-router';
import { SessionProvider } from '../modules/session/components/session-provider';
import { SiteConfigContext } from '../modules/site/hooks/use-site-config';
import { AppRoutes } from './router';

/**
 * The router makes plain state updates, not transitions (`useTransitions={false}`): a session change and the
 * navigation it causes (sign in, then go to the dashboard; sign out, then go home) then render in one pass, and
 * the pages' session gates never see the one without the other.
 */
export function App({ siteConfig }: { siteConfig: SiteConfig }) {
  return (
    <SiteConfigContext value={siteConfig}>
      <SessionProvider>
        <BrowserRouter useTransitions={false}>
          <AppRoutes />
        </BrowserRouter>
      </SessionProvider>
    </SiteConfigContext>
  );
}
