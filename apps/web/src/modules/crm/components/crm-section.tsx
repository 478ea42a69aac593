import { CrmMessages, type Membership, type WebhookDelivery, type WebhookSettings } from '@digicard/contracts';
import { can } from '@digicard/domain';
import { Button, FormAlert, Notice, TextField } from '@digicard/ui';
import { useState, type KeyboardEvent } from 'react';
import { UpgradeNotice } from '../../profile-editor/components/fields';
import { LoadFailed } from '../../site/components/load-failed';
import { LoadMore } from '../../site/components/load-more';
import { rotateWebhookSecret, saveWebhook, sendTestWebhook } from '../api/crm';
import { useWebhookDeliveries, useWebhookSettings } from '../hooks/use-crm';
import '../crm.css';

export const CRM_SAVED = 'Webhook saved.';
export const CRM_ROTATED = 'New secret made. Update it in your CRM: deliveries from now on are signed with it.';
const FAILED = 'That did not work. Please try again in a minute.';

/**
 * CRM integration (DigiGold and up): the webhook address each new lead is posted to, its signing secret (show,
 * rotate), a test lead, and the delivery log. Other tiers see the upgrade message (the server refuses them too).
 * (No <form> elements: the section sits inside the editor's form, and forms cannot nest; Enter in the address saves.)
 */
export function CrmSection({ membership }: { membership: Membership }) {
  if (!can(membership, 'crm')) {
    return (
      <>
        <UpgradeNotice>{CrmMessages.upgrade}</UpgradeNotice>
        <p className="pe-note">With DigiGold, every new lead from your profile is sent to your CRM at once, as a signed webhook.</p>
      </>
    );
  }
  return <CrmSettings />;
}

function CrmSettings() {
  const { state, retry, replace } = useWebhookSettings();
  if (state.status === 'loading') return <p role="status">Loading...</p>;
  if (state.status === 'failed') return <LoadFailed message={state.message} retry={retry} />;
  return (
    <div className="crm">
      <p>
        Every new lead from your profile (lead form, Exchange Contact, Get your own Profile) is posted to your CRM as JSON, signed so your
        CRM can check it came from us.
      </p>
      <WebhookForm settings={state.value} onSaved={replace} />
      {state.value.endpoint ? <SecretAndTest settings={state.value} onChanged={replace} /> : null}
      <DeliveryLog />
    </div>
  );
}

function WebhookForm({ settings, onSaved }: { settings: WebhookSettings; onSaved: (s: WebhookSettings) => void }) {
  const [url, setUrl] = useState(settings.endpoint?.url ?? '');
  const [enabled, setEnabled] = useState(settings.endpoint?.enabled ?? true);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const submit = async () => {
    setPending(true);
    setError(null);
    setFailure(null);
    setSaved(false);
    const result = await saveWebhook({ url, enabled });
    setPending(false);
    if (result.ok) {
      onSaved(result.data);
      setEnabled(result.data.endpoint?.enabled ?? enabled);
      setSaved(true);
      return;
    }
    const fieldError = result.error.fieldErrors?.['url']?.[0];
    if (fieldError) setError(fieldError);
    else setFailure(result.error.statusCode === 403 ? result.error.message : result.error.statusCode === 0 ? result.error.message : FAILED);
  };

  const enterSaves = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    // Not the editor's Save (the surrounding form): this address's own.
    event.preventDefault();
    void submit();
  };

  return (
    <div className="crm-form" role="group" aria-label="Webhook">
      {settings.endpoint?.disabledReason ? <Notice tone="warning">{settings.endpoint.disabledReason}</Notice> : null}
      <TextField
        id="crm-url"
        label="Webhook address"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://crm.example.com/webhooks/digicard"
        hint="Your CRM's https address for incoming webhooks."
        value={url}
        error={error ?? undefined}
        onChange={(event) => setUrl(event.currentTarget.value)}
        onKeyDown={enterSaves}
      />
      <div className="pe-check">
        <input id="crm-enabled" type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.currentTarget.checked)} />
        <label htmlFor="crm-enabled">Send new leads to this address</label>
      </div>
      <Button disabled={pending} onClick={() => void submit()}>
        {pending ? 'Saving...' : 'Save webhook'}
      </Button>
      <p className="pe-status" role="status">
        {saved ? CRM_SAVED : ''}
      </p>
      <FormAlert>{failure}</FormAlert>
    </div>
  );
}

function SecretAndTest({ settings, onChanged }: { settings: WebhookSettings; onChanged: (s: WebhookSettings) => void }) {
  const [shown, setShown] = useState(false);
  const [message, setMessage] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const endpoint = settings.endpoint!;

  const run = async (action: 'rotate' | 'test') => {
    setPending(true);
    setMessage('');
    setFailure(null);
    if (action === 'rotate') {
      const result = await rotateWebhookSecret();
      if (result.ok) {
        onChanged(result.data);
        setShown(true);
        setMessage(CRM_ROTATED);
      } else setFailure(result.error.statusCode === 0 ? result.error.message : FAILED);
    } else {
      const result = await sendTestWebhook();
      if (result.ok) setMessage(result.data.message);
      else setFailure(result.error.statusCode === 0 || result.error.statusCode === 429 ? result.error.message : FAILED);
    }
    setPending(false);
  };

  return (
    <section className="crm-secret" aria-labelledby="crm-secret-title">
      <h3 id="crm-secret-title" className="pe-subtitle">
        Signing secret
      </h3>
      <p className="pe-note">
        Each delivery has the header <code>X-DigiCard-Signature: t=…,v1=…</code>: the HMAC-SHA256 of the time, a dot and the body, keyed
        with this secret.
      </p>
      <div className="crm-secret__row">
        <code className="crm-secret__value" aria-label="Your secret">
          {shown ? endpoint.secret : '••••••••••••••••••••'}
        </code>
        <Button variant="secondary" onClick={() => setShown((s) => !s)} aria-expanded={shown}>
          {shown ? 'Hide secret' : 'Show secret'}
        </Button>
        <Button variant="secondary" disabled={pending} onClick={() => void run('rotate')}>
          Rotate secret
        </Button>
      </div>
      <div className="crm-actions">
        <Button disabled={pending || !endpoint.enabled} onClick={() => void run('test')}>
          Send test lead
        </Button>
      </div>
      <p className="pe-status" role="status">
        {message}
      </p>
      <FormAlert>{failure}</FormAlert>
    </section>
  );
}

const when = new Intl.DateTimeFormat('en-ZA', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Johannesburg' });

export function deliveryStatusLabel(delivery: WebhookDelivery): string {
  if (delivery.status === 'succeeded') return 'Delivered';
  if (delivery.status === 'failed') return 'Failed';
  return delivery.attempts === 0
    ? 'Sending'
    : `Retrying${delivery.nextAttemptAt ? ` at ${when.format(new Date(delivery.nextAttemptAt))}` : ''}`;
}

function responseLabel(delivery: WebhookDelivery): string {
  if (delivery.lastStatusCode !== null) return `HTTP ${delivery.lastStatusCode}`;
  if (delivery.lastError) return delivery.lastError.length > 80 ? `${delivery.lastError.slice(0, 80)}…` : delivery.lastError;
  return '—';
}

function DeliveryLog() {
  const { state, retry, hasMore, more, loadMore } = useWebhookDeliveries();
  return (
    <section aria-labelledby="crm-log-title">
      <h3 id="crm-log-title" className="pe-subtitle">
        Delivery log
      </h3>
      {state.status === 'loading' ? <p role="status">Loading...</p> : null}
      {state.status === 'failed' ? <LoadFailed message={state.message} retry={retry} /> : null}
      {state.status === 'loaded' && state.value.deliveries.length === 0 ? <p className="pe-list__empty">Nothing sent yet.</p> : null}
      {state.status === 'loaded' && state.value.deliveries.length > 0 ? (
        <table className="crm-log">
          <caption className="crm-log__caption">Every delivery, newest first. Failed ones are retried for 24 hours.</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Lead</th>
              <th scope="col">Status</th>
              <th scope="col">Response</th>
              <th scope="col">Attempts</th>
            </tr>
          </thead>
          <tbody>
            {state.value.deliveries.map((d) => (
              <tr key={d.id} className={`crm-log__row crm-log__row--${d.status}`}>
                <td data-label="Time">{when.format(new Date(d.createdAt))}</td>
                <td data-label="Lead">{d.type === 'lead.test' ? 'Test lead' : d.summary}</td>
                <td data-label="Status">{deliveryStatusLabel(d)}</td>
                <td data-label="Response">{responseLabel(d)}</td>
                <td data-label="Attempts">{d.attempts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <LoadMore list="deliveries" hasMore={hasMore} more={more} onLoadMore={() => void loadMore()} />
    </section>
  );
}
