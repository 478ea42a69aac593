import { AccountMessages, EmailChangeConfirmSchema, ErrorCode, WebRoutes } from '@digicard/contracts';
import { Button, Container, Notice } from '@digicard/ui';
import { useState } from 'react';
import { Link } from 'react-router';
import { confirmEmailChange } from '../modules/accounts/api/accounts';
import { useLinkToken } from '../modules/accounts/hooks/use-link-token';
import { refreshSession } from '../modules/session/utils/session-actions';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';
import { focusOnMount } from '../modules/site/utils/focus-on-mount';

type Phase =
  | { kind: 'ready' }
  | { kind: 'confirming' }
  | { kind: 'done'; message: string }
  | { kind: 'invalid'; message: string }
  | { kind: 'failed'; message: string };

/**
 * /confirm-email?token=...: the link sent to a new address. A button confirms it (a mail program that opens links to
 * check them never changes an email by doing so); then the new address is the one to log in with.
 */
export function ConfirmEmailPage() {
  usePageMeta('Confirm your new email', 'Confirm the new email address of your account with the link we emailed you.');
  const token = useLinkToken();
  const complete = token !== null && EmailChangeConfirmSchema.shape.token.safeParse(token).success;
  const [phase, setPhase] = useState<Phase>(complete ? { kind: 'ready' } : { kind: 'invalid', message: AccountMessages.linkInvalid });

  async function confirm() {
    if (!token) return;
    setPhase({ kind: 'confirming' });
    const result = await confirmEmailChange({ token });
    if (result.ok) {
      void refreshSession();
      setPhase({ kind: 'done', message: result.data.message });
      return;
    }
    const { error } = result;
    if (error.code === ErrorCode.LinkInvalid || error.statusCode === 400)
      setPhase({ kind: 'invalid', message: AccountMessages.linkInvalid });
    else setPhase({ kind: 'failed', message: error.message });
  }

  return (
    <Container className="page account-page">
      <h1 className="page__title">Confirm your new email</h1>
      {phase.kind === 'ready' || phase.kind === 'confirming' ? (
        <>
          <p className="page__lead">Confirm this address, and use it to log in from now on.</p>
          <p className="page__actions">
            <Button disabled={phase.kind === 'confirming'} onClick={() => void confirm()}>
              {phase.kind === 'confirming' ? 'Confirming...' : 'Confirm my new email'}
            </Button>
          </p>
        </>
      ) : phase.kind === 'done' ? (
        <>
          <Notice tone="success" role="status" tabIndex={-1} ref={focusOnMount}>
            {phase.message}
          </Notice>
          <p className="page__actions">
            <Link to={WebRoutes.login} className="button-link">
              Log In
            </Link>
          </p>
        </>
      ) : (
        <>
          <Notice tone="warning" role="alert" tabIndex={-1} ref={focusOnMount}>
            {phase.message}
          </Notice>
          {phase.kind === 'failed' ? (
            <p className="page__actions">
              <Button onClick={() => void confirm()}>Try again</Button>
            </p>
          ) : (
            <p>To get a new link, log in and change your email again under Settings.</p>
          )}
        </>
      )}
    </Container>
  );
}
