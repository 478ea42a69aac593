import { lazy, Suspense } from 'react';
import { RequireSignedIn } from '../modules/session/components/session-gates';
import { useSession } from '../modules/session/hooks/use-session';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';

const PrintConsole = lazy(() => import('../modules/orders/components/print-console'));

/** /print: the print team's console. Signed-in accounts with the `print` role only (the API refuses everyone else too). */
export function PrintPage() {
  usePageMeta('Print console', 'The print team’s queue of card orders.');
  return (
    <RequireSignedIn>
      <PrintOnly />
    </RequireSignedIn>
  );
}

function PrintOnly() {
  const { user } = useSession();
  if (!user) return null;
  if (user.role !== 'print') {
    return (
      <main className="page">
        <h1 className="page__title">Print console</h1>
        <p role="alert">This page is for the print team only.</p>
      </main>
    );
  }
  return (
    <Suspense fallback={<p role="status">Loading...</p>}>
      <PrintConsole />
    </Suspense>
  );
}
