import { PasswordResetSchema, WebRoutes } from '@digicard/contracts';
import { Container, Notice } from '@digicard/ui';
import { useState } from 'react';
import { Link } from 'react-router';
import { ResetPasswordForm } from '../modules/accounts/components/reset-password-form';
import { SignInLinkGate } from '../modules/accounts/components/sign-in-link-gate';
import { useLinkToken } from '../modules/accounts/hooks/use-link-token';
import { QueryProvider } from '../modules/api/query-client';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';
import { focusOnMount } from '../modules/site/utils/focus-on-mount';

const INCOMPLETE_LINK_MESSAGE = 'This link is incomplete. Please open the link from the email again, or ask for a new one.';

/**
 * /reset-password?token=...: choose a new password with the emailed link. A browser signed in to another account is
 * asked first (SignInLinkGate), before a password is typed; signed in, an unusable link is said so at once.
 */
export function ResetPasswordPage() {
  usePageMeta('Choose a new password', 'Choose a new password for your account with the link we emailed you.');
  const token = useLinkToken();
  const [invalidMessage, setInvalidMessage] = useState<string | null>(null);
  // A link cut off by the mail program cannot work: say so before the user chooses a password.
  const complete = token !== null && PasswordResetSchema.shape.token.safeParse(token).success;

  return (
    <QueryProvider>
      <Container className="page account-page">
        <h1 className="page__title">Choose a new password</h1>
        {!complete || invalidMessage ? (
          <>
            <Notice tone="warning" role="alert" tabIndex={-1} ref={invalidMessage ? focusOnMount : undefined}>
              {invalidMessage ?? INCOMPLETE_LINK_MESSAGE}
            </Notice>
            <p>To get a new link, enter your email on the Log In page and choose Reset Password.</p>
            <p className="page__actions">
              <Link to={WebRoutes.login} className="button-link">
                Request a new link
              </Link>
            </p>
          </>
        ) : (
          <SignInLinkGate purpose="reset-password" token={token} onLinkInvalid={setInvalidMessage}>
            <ResetPasswordForm token={token} onLinkInvalid={setInvalidMessage} />
          </SignInLinkGate>
        )}
      </Container>
    </QueryProvider>
  );
}
