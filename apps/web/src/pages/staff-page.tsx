import { Container } from '@digicard/ui';
import { lazy, Suspense } from 'react';
import { RequireSignedIn } from '../modules/session/components/session-gates';
import { useSession } from '../modules/session/hooks/use-session';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';

const StaffConsole = lazy(() => import('../modules/staff/components/staff-console'));

/** /staff: the staff console (role staff). Visitors go to /login; other accounts are told it is not theirs. */
export function StaffPage() {
  usePageMeta('Staff console', 'DigiCard staff: partners, roles, vanity paths and business links.');
  return (
    <RequireSignedIn>
      <Staff />
    </RequireSignedIn>
  );
}

function Staff() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <Container className="page staff-page">
      <h1 className="page__title">Staff console</h1>
      {user.role === 'staff' ? (
        <Suspense
          fallback={
            <p className="loading-notice" role="status">
              Loading...
            </p>
          }
        >
          <StaffConsole />
        </Suspense>
      ) : (
        <p className="page__lead">This page is for DigiCard staff only.</p>
      )}
    </Container>
  );
}
