import { WebRoutes } from '@digicard/contracts';
import { Container } from '@digicard/ui';
import { Link } from 'react-router';
import { EmailVerification } from '../modules/accounts/components/email-verification';
import { ResendVerification } from '../modules/accounts/components/resend-verification';
import { SignInLinkGate } from '../modules/accounts/components/sign-in-link-gate';
import { useLinkToken } from '../modules/accounts/hooks/use-link-token';
import { QueryProvider } from '../modules/api/query-client';
import { useSession } from '../modules/session/hooks/use-session';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';
import { useSiteConfig } from '../modules/site/hooks/use-site-config';

/**
 * /verify-email: after registering, the notice to check the inbox; with `?token=` (the emailed link), the
 * verification itself (a browser signed in to another account is asked first: SignInLinkGate).
 */
export function VerifyEmailPage() {
  usePageMeta('Verify your email', 'Verify your email address so that you can share your digital business profile.');
  const token = useLinkToken();
  return (
    <QueryProvider>
      <Container className="page account-page">
        <h1 className="page__title">Verify your email</h1>
        {token === null ? (
          <RegisteredNotice />
        ) : (
          <SignInLinkGate purpose="verify-email" token={token}>
            <EmailVerification token={token} />
          </SignInLinkGate>
        )}
      </Container>
    </QueryProvider>
  );
}

function RegisteredNotice() {
  const { brandName } = useSiteConfig();
  const { user } = useSession();
  return (
    <>
      <p className="page__lead">{`Thank you for registering your ${brandName} Business Card.`}</p>
      <p>Please check your inbox and verify your email address. You will not be able to share your profile without verification.</p>
      <p className="page__actions">
        <Link to={WebRoutes.dashboard} className="button-link">
          Go to Dashboard
        </Link>
      </p>
      {user && !user.isVerified ? <ResendVerification /> : null}
    </>
  );
}
