import { Suspense, useLayoutEffect, useRef } from 'react';
import { NavigationType, Outlet, useLocation, useNavigationType } from 'react-router';
import { SiteFooter } from '../modules/site/components/site-footer';
import { SiteHeader } from '../modules/site/components/site-header';
import { LoadingNotice } from '../modules/session/components/loading-notice';
import { PageErrorBoundary } from './page-error-boundary';

const MAIN_CONTENT_ID = 'main-content';

/** Header, the page, footer: the frame of every page. */
export function Layout() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const mainRef = useRef<HTMLElement>(null);

  // A link to a new page starts at its top, with the focus on the page (back and forward keep the browser's place).
  useLayoutEffect(() => {
    if (navigationType === NavigationType.Pop) return;
    window.scrollTo(0, 0);
    mainRef.current?.focus({ preventScroll: true });
  }, [pathname, navigationType]);

  return (
    <div className="layout">
      <a href={`#${MAIN_CONTENT_ID}`} className="skip-link">
        Skip to content
      </a>
      <SiteHeader />
      <main id={MAIN_CONTENT_ID} ref={mainRef} className="layout__main" tabIndex={-1}>
        <PageErrorBoundary key={pathname}>
          {/* Pages loaded on demand (see router.tsx) show "Loading..." until their code is in. */}
          <Suspense fallback={<LoadingNotice />}>
            <Outlet />
          </Suspense>
        </PageErrorBoundary>
      </main>
      <SiteFooter />
    </div>
  );
}
