import { Container, Notice } from '@digicard/ui';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ResendVerification } from '../modules/accounts/components/resend-verification';
import { publicProfileUrl } from '../modules/accounts/utils/profile-url';
import { RequireSignedIn } from '../modules/session/components/session-gates';
import { useSession } from '../modules/session/hooks/use-session';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';

/** /dashboard: signed-in users only (visitors go to /login). The profile editor arrives with its own issue. */
export function DashboardPage() {
  usePageMeta(
    'Dashboard',
    'Your digital business profile: edit it, share it and find your QR code.',
  );
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
      <p className="page__lead">{`Welcome, ${user.firstName}!`}</p>
      {user.isVerified ? null : (
        <section className="verify-banner" aria-labelledby="verify-banner-text">
          <p id="verify-banner-text" className="verify-banner__text">
            Please verify your email address. You will not be able to share your profile without verification.
          </p>
          <ResendVerification />
        </section>
      )}
      <section className="dashboard-page__profile" aria-labelledby="profile-url-title">
        <h2 id="profile-url-title" className="dashboard-page__subtitle">
          Your profile address
        </h2>
        <p className="dashboard-page__url">{profileUrl}</p>
      </section>
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
