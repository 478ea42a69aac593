import { AccountMessages, VerifyEmailSchema, WebRoutes } from '@digicard/contracts';
import { Button, Notice } from '@digicard/ui';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../session/hooks/use-session';
import { UnpaidOrders } from '../../orders/components/unpaid-orders';
import { focusOnMount } from '../../site/utils/focus-on-mount';
import { verifyEmailOnce, type VerificationOutcome } from '../utils/verify-email-once';
import { ResendVerification } from './resend-verification';

type Phase = { kind: 'verifying' } | VerificationOutcome;
type Attempt = { readonly token: string; readonly attempt: number };

/**
 * The link from the verification email: "Verifying your email...", then the server's answer (and, once verified, any
 * order of the sign-up still to be paid, with "Pay for your cards"). A used or expired link offers a new email (signed in) or "Log In" (signed out); a failed request offers "Try again".
 */
export function EmailVerification({ token }: { token: string }) {
  const wellFormed = VerifyEmailSchema.safeParse({ token }).success;
  const [attempt, setAttempt] = useState(0);
  // A mutation (the link is used up by its request), sent when the page opens and by "Try again" (a new attempt):
  // verifyEmailOnce makes one request per token and attempt, so StrictMode's second mount gets the first one's
  // answer. Unlike a query's, its answer stays when the link's sign-in empties the query cache (query-client.tsx).
  const verification = useMutation({ mutationFn: (asked: Attempt) => verifyEmailOnce(asked.token, asked.attempt) });
  const { mutate } = verification;
  useEffect(() => {
    if (wellFormed) mutate({ token, attempt });
  }, [mutate, token, attempt, wellFormed]);

  const asked = verification.variables;
  const answer = asked?.token === token && asked.attempt === attempt ? verification.data : undefined;
  const phase: Phase = !wellFormed ? { kind: 'invalid', message: AccountMessages.linkInvalid } : (answer ?? { kind: 'verifying' });

  function tryAgain() {
    setAttempt((n) => n + 1);
  }

  switch (phase.kind) {
    case 'verifying':
      return (
        <p className="page__lead" role="status">
          Verifying your email...
        </p>
      );
    case 'verified':
      return (
        <>
          <Notice tone="success" role="status" tabIndex={-1} ref={focusOnMount} className="verify-email__result">
            {phase.message}
          </Notice>
          {/* The special offer's sign-up placed an order on the server: the now signed-in owner pays it here, in any browser. */}
          <UnpaidOrders />
          <p className="page__actions">
            <Link to={WebRoutes.dashboard} className="button-link">
              Go to Dashboard
            </Link>
          </p>
        </>
      );
    case 'invalid':
      return (
        <>
          <Notice tone="warning" role="alert" tabIndex={-1} ref={focusOnMount} className="verify-email__result">
            {phase.message}
          </Notice>
          <InvalidLinkActions />
        </>
      );
    case 'failed':
      return (
        <>
          <Notice tone="warning" role="alert" tabIndex={-1} ref={focusOnMount} className="verify-email__result">
            {phase.message}
          </Notice>
          <p className="page__actions">
            <Button onClick={tryAgain}>Try again</Button>
          </p>
        </>
      );
  }
}

/** After a used or expired link: a new email when signed in and not yet verified; else Dashboard or Log In. */
function InvalidLinkActions() {
  const { status, user } = useSession();
  if (status === 'loading') return null;
  if (status === 'signed-out' || !user) {
    return (
      <p className="page__actions">
        <Link to={WebRoutes.login} className="button-link">
          Log In
        </Link>
      </p>
    );
  }
  if (user.isVerified) {
    return (
      <p className="page__actions">
        <Link to={WebRoutes.dashboard} className="button-link">
          Go to Dashboard
        </Link>
      </p>
    );
  }
  return <ResendVerification />;
}
