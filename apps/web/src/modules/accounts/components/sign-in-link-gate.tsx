import { WebRoutes, type SignInLinkPurpose } from '@digicard/contracts';
import { Button, FormAlert, Notice } from '@digicard/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../session/hooks/use-session';
import { SIGN_OUT_FAILED_MESSAGE } from '../../session/utils/session-actions';
import { focusOnMount } from '../../site/utils/focus-on-mount';
import { checkLinkOnce, switchAccountQuestion, type LinkCheckOutcome } from '../utils/check-link-once';

/**
 * Before a verification or reset link is used (it signs its account in): a browser signed in to another account is
 * asked first, "You are signed in as a@x. This link is for another account. Sign out and continue as b***@m***.za?",
 * and only "Sign out and continue" (a sign-out, CSRF-checked like every change) lets the link go on, as for a
 * signed-out browser; "No, stay signed in" goes to the dashboard with the link unused. Signed out, or signed in to
 * the link's own account, the page goes on at once, as before. Once it has gone on it stays so: the link's own
 * sign-in must not bring the question back.
 *
 * A link found unusable goes to `onLinkInvalid` when given (the reset page says so before a password is typed);
 * otherwise the page goes on and its own request says so (the verification page's texts).
 */
export function SignInLinkGate({
  purpose,
  token,
  onLinkInvalid,
  children,
}: {
  purpose: SignInLinkPurpose;
  token: string;
  onLinkInvalid?: (message: string) => void;
  children: ReactNode;
}) {
  const { status, user, signOut, refresh } = useSession();
  const [goneOn, setGoneOn] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [switching, setSwitching] = useState(false);
  const [signOutFailed, setSignOutFailed] = useState(false);

  // Asked while signed in and not yet gone on; "Try again" is a new attempt (a new key, so a new request). An answer
  // is final for its attempt; checkLinkOnce asks once per link and attempt however often the query runs.
  const check = useQuery({
    queryKey: ['sign-in-link', purpose, token, attempt],
    queryFn: () => checkLinkOnce(purpose, token, attempt),
    enabled: !goneOn && status === 'signed-in',
    staleTime: Infinity,
  });
  const outcome: LinkCheckOutcome | null = check.data ?? null;
  const goesOn = status === 'signed-out' || outcome?.kind === 'own' || (outcome?.kind === 'invalid' && !onLinkInvalid);
  // Latched while rendering (React's pattern for state derived from earlier renders), before the children can sign in.
  if (goesOn && !goneOn) setGoneOn(true);

  const invalidMessage = !goneOn && outcome?.kind === 'invalid' ? outcome.message : null;
  useEffect(() => {
    if (invalidMessage !== null) onLinkInvalid?.(invalidMessage);
  }, [invalidMessage, onLinkInvalid]);

  const sessionEnded = outcome?.kind === 'signed-out';
  useEffect(() => {
    if (sessionEnded) void refresh(); // signed out meanwhile (another tab): the session says so, and the page goes on
  }, [sessionEnded, refresh]);

  async function signOutAndContinue() {
    setSwitching(true);
    setSignOutFailed(false);
    const signedOut = await signOut();
    setSwitching(false);
    if (signedOut) setGoneOn(true);
    else setSignOutFailed(true);
  }

  if (goneOn || goesOn) return children;
  if (outcome?.kind === 'other' && user) {
    const { situation, question } = switchAccountQuestion(user.email, outcome.maskedEmail);
    return (
      <div className="link-switch">
        <Notice tone="warning" role="alert" tabIndex={-1} ref={focusOnMount} className="link-switch__question">
          <p>{situation}</p>
          <p>{question}</p>
        </Notice>
        <p className="page__actions">
          <Button disabled={switching} onClick={() => void signOutAndContinue()}>
            {switching ? 'Signing out...' : 'Sign out and continue'}
          </Button>
          <Link to={WebRoutes.dashboard} className="button-link button-link--secondary">
            No, stay signed in
          </Link>
        </p>
        <FormAlert className="link-switch__alert">{signOutFailed ? SIGN_OUT_FAILED_MESSAGE : null}</FormAlert>
      </div>
    );
  }
  if (outcome?.kind === 'failed') {
    return (
      <>
        <Notice tone="warning" role="alert" tabIndex={-1} ref={focusOnMount}>
          {outcome.message}
        </Notice>
        <p className="page__actions">
          <Button onClick={() => setAttempt((n) => n + 1)}>Try again</Button>
        </p>
      </>
    );
  }
  if (outcome?.kind === 'invalid') return null; // the page shows the message it was given
  return (
    <p className="loading-notice" role="status">
      Loading...
    </p>
  );
}
