import { Button, FormAlert, Notice } from '@digicard/ui';
import { useState } from 'react';
import { NETWORK_FAILURE_STATUS } from '../../api/http';
import { isTooManyRequests } from '../../forms/utils/apply-api-error';
import { useSession } from '../../session/hooks/use-session';
import { resendVerification } from '../api/accounts';

const RESEND_FAILED_MESSAGE = 'We could not send the email right now. Please try again in a minute.';
const SIGNED_OUT_MESSAGE = 'Your session has ended. Please log in again to get a new verification email.';

type Outcome = { ok: true; message: string } | { ok: false; message: string };

/** "Resend verification email": asks for a new verification email and shows the server's answer under it. */
export function ResendVerification() {
  const { refresh } = useSession();
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function resend() {
    setSending(true);
    setOutcome(null);
    const result = await resendVerification();
    setSending(false);
    if (result.ok) {
      setOutcome({ ok: true, message: result.data.message });
    } else if (result.error.statusCode === 401) {
      setOutcome({ ok: false, message: SIGNED_OUT_MESSAGE });
      void refresh();
    } else if (isTooManyRequests(result.error) || result.error.statusCode === NETWORK_FAILURE_STATUS) {
      setOutcome({ ok: false, message: result.error.message });
    } else {
      setOutcome({ ok: false, message: RESEND_FAILED_MESSAGE });
    }
  }

  return (
    <div className="resend-verification">
      <Button variant="secondary" disabled={sending} onClick={() => void resend()}>
        {sending ? 'Sending...' : 'Resend verification email'}
      </Button>
      <div role="status" className="resend-verification__status">
        {outcome?.ok ? <Notice tone="success">{outcome.message}</Notice> : null}
      </div>
      {outcome && !outcome.ok ? <FormAlert className="resend-verification__alert">{outcome.message}</FormAlert> : null}
    </div>
  );
}
