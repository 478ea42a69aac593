import type { SiteConfig } from '@digicard/contracts';
import { DialogHost } from '@digicard/ui';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { BrowserRouter, StaticRouter } from 'react-router';
import { QueryProvider } from '../modules/api/query-client';
import { SessionProvider } from '../modules/session/components/session-provider';
import { SiteConfigContext } from '../modules/site/hooks/use-site-config';
import { AppRoutes } from './router';

/**
 * The router makes plain state updates, not transitions (`useTransitions={false}`): a session change and the
 * navigation it causes (sign in, then go to the dashboard; sign out, then go home) then render in one pass, and
 * the pages' session gates never see the one without the other.
 * `location` is given when the gateway renders a marketing page on the server (entry-server.tsx); the browser
 * then hydrates the same tree with its own router. What the pages read is TanStack Query's: the app's client in the
 * browser, one of its own for each page the server renders (`queryClient`).
 */
export function App({
  siteConfig,
  location,
  queryClient,
  children,
}: {
  siteConfig: SiteConfig;
  location?: string;
  queryClient?: QueryClient;
  children?: ReactNode;
}) {
  return (
    <QueryProvider client={queryClient}>
      <SiteConfigContext value={siteConfig}>
        <SessionProvider>
          {location === undefined ? (
            <BrowserRouter useTransitions={false}>
              <AppRoutes />
              {children}
            </BrowserRouter>
          ) : (
            <StaticRouter location={location}>
              <AppRoutes />
            </StaticRouter>
          )}
          <DialogHost />
        </SessionProvider>
      </SiteConfigContext>
    </QueryProvider>
  );
}
