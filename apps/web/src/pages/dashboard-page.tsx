import { Container, Notice } from '@digicard/ui';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ResendVerification } from '../modules/accounts/components/resend-verification';
import { publicProfileUrl } from '../modules/accounts/utils/profile-url';
import { RequireSignedIn } from '../modules/session/components/session-gates';
import { useSession } from '../modules/session/hooks/use-session';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';

// The editor (and the shared profile view of its live preview) loads only here, in chunks of its own.
const ProfileEditor = lazy(() => import('../modules/profile-editor/components/profile-editor'));

/** /dashboard: signed-in users only (visitors go to /login). The verification banner, then the profile editor. */
export function DashboardPage() {
  usePageMeta('Dashboard', 'Your digital business profile: edit it, share it and find your QR code.');
  return (
    <RequireSignedIn>
      <Dashboard />
    </RequireSignedIn>
  );
}

function Dashboard() {
  const { user } = useSession();
  const notice = useNoticeOnce();
  if (!user) return null;
  const profileUrl = publicProfileUrl(user.username);
  return (
    <Container className="page dashboard-page">
      <h1 className="page__title">Dashboard</h1>
      {notice ? (
        <Notice tone="success" role="status" className="dashboard-page__notice">
          {notice}
        </Notice>
      ) : null}
      <p className="page__lead dashboard-page__welcome">{`Welcome, ${user.firstName}!`}</p>
      {user.isVerified ? null : (
        <section className="verify-banner" aria-labelledby="verify-banner-text">
          <p id="verify-banner-text" className="verify-banner__text">
            Please verify your email address. You will not be able to share your profile without verification.
          </p>
          <ResendVerification />
        </section>
      )}
      <p className="dashboard-page__url">
        <span className="dashboard-page__url-label">Your profile address: </span>
        <a href={`/${user.username}`} target="_blank" rel="noopener">
          {profileUrl}
          <span className="ui-visually-hidden"> (opens in a new tab)</span>
        </a>
      </p>
      <Suspense
        fallback={
          <p className="loading-notice" role="status">
            Loading...
          </p>
        }
      >
        <ProfileEditor />
      </Suspense>
    </Container>
  );
}

/**
 * A confirmation another page sent along in the navigation state (e.g. after a password change). It is shown
 * while the page stays open, and taken out of the history entry so that a reload does not show it again.
 */
function useNoticeOnce(): string | null {
  const location = useLocation();
  const navigate = useNavigate();
  const [notice] = useState(() => noticeFrom(location.state));
  useEffect(() => {
    if (noticeFrom(location.state) === null) return;
    void navigate({ pathname: location.pathname, search: location.search, hash: location.hash }, { replace: true, state: null });
  }, [location, navigate]);
  return notice;
}

function noticeFrom(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('notice' in state)) return null;
  return typeof state.notice === 'string' ? state.notice : null;
}
