import {
  CrmMessages,
  SaveWebhookSchema,
  type ApiError,
  type Membership,
  type SaveWebhook,
  type WebhookDelivery,
  type WebhookSettings,
} from '@digicard/contracts';
import { can, SA_TIME_ZONE } from '@digicard/domain';
import { Button, FormAlert, Notice, TextField } from '@digicard/ui';
import { useState, type KeyboardEvent } from 'react';
import { useAction } from '../../api/use-action';
import { useContractForm } from '../../forms/hooks/use-contract-form';
import { applyApiError } from '../../forms/utils/apply-api-error';
import { UpgradeNotice } from '../../profile-editor/components/fields';
import { LoadFailed } from '../../site/components/load-failed';
import { LoadMore } from '../../site/components/load-more';
import { useRotateWebhookSecret, useSaveWebhook, useSendTestWebhook, useWebhookDeliveries, useWebhookSettings } from '../hooks/use-crm';
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
  const { state, retry } = useWebhookSettings();
  if (state.status === 'loading') return <p role="status">Loading...</p>;
  if (state.status === 'failed') return <LoadFailed message={state.message} retry={retry} />;
  return (
    <div className="crm">
      <p>
        Every new lead from your profile (lead form, Exchange Contact, Get your own Profile) is posted to your CRM as JSON, signed so your
        CRM can check it came from us.
      </p>
      <WebhookForm settings={state.value} />
      {state.value.endpoint ? <SecretAndTest settings={state.value} /> : null}
      <DeliveryLog />
    </div>
  );
}

/** The form's fields, in the contract's names (a server's field errors land on them). */
const WEBHOOK_FIELDS = ['url', 'enabled'] as const;

/** What a refusal that is not about a field says: a 403's or a network failure's own words, else FAILED. */
function failureText(error: ApiError): string {
  return error.statusCode === 403 || error.statusCode === 0 ? error.message : FAILED;
}

/**
 * The webhook's address and switch: a react-hook-form form checked by the contract's SaveWebhookSchema, as the
 * server checks it; the server's field errors (an address it refuses) go on their fields.
 */
function WebhookForm({ settings }: { settings: WebhookSettings }) {
  const saving = useSaveWebhook();
  const form = useContractForm(SaveWebhookSchema, { url: settings.endpoint?.url ?? '', enabled: settings.endpoint?.enabled ?? true });
  const { errors, isSubmitting: pending } = form.formState;
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const onValid = async (values: SaveWebhook) => {
    const result = await saving.mutateAsync(values);
    if (result.ok) {
      form.setValue('enabled', result.data.endpoint?.enabled ?? values.enabled);
      setSaved(true);
      return;
    }
    setFailure(applyApiError(result.error, WEBHOOK_FIELDS, form.setError, failureText(result.error)));
  };
  const submit = () => {
    setFailure(null);
    setSaved(false);
    void form.handleSubmit(onValid)();
  };

  const enterSaves = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    // Not the editor's Save (the surrounding form): this address's own.
    event.preventDefault();
    submit();
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
        error={errors.url?.message}
        {...form.register('url')}
        onKeyDown={enterSaves}
      />
      <div className="pe-check">
        <input id="crm-enabled" type="checkbox" {...form.register('enabled')} />
        <label htmlFor="crm-enabled">Send new leads to this address</label>
      </div>
      <Button disabled={pending} onClick={submit}>
        {pending ? 'Saving...' : 'Save webhook'}
      </Button>
      <p className="pe-status" role="status">
        {saved ? CRM_SAVED : ''}
      </p>
      <FormAlert>{failure}</FormAlert>
    </div>
  );
}

function SecretAndTest({ settings }: { settings: WebhookSettings }) {
  const rotation = useRotateWebhookSecret();
  const test = useSendTestWebhook();
  const [shown, setShown] = useState(false);
  const action = useAction();
  const endpoint = settings.endpoint!;

  const rotate = () =>
    action.run({
      send: () => rotation.mutateAsync(),
      failed: (error) => (error.statusCode === 0 ? error.message : FAILED),
      done: () => {
        setShown(true);
        return CRM_ROTATED;
      },
    });
  const sendTest = () =>
    action.run({
      send: () => test.mutateAsync(),
      failed: (error) => (error.statusCode === 0 || error.statusCode === 429 ? error.message : FAILED),
      done: (sent) => sent.message,
    });

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
        <Button variant="secondary" disabled={action.pending} onClick={() => void rotate()}>
          Rotate secret
        </Button>
      </div>
      <div className="crm-actions">
        <Button disabled={action.pending || !endpoint.enabled} onClick={() => void sendTest()}>
          Send test lead
        </Button>
      </div>
      <p className="pe-status" role="status">
        {action.message}
      </p>
      <FormAlert>{action.failure}</FormAlert>
    </section>
  );
}

const when = new Intl.DateTimeFormat('en-ZA', { dateStyle: 'medium', timeStyle: 'short', timeZone: SA_TIME_ZONE });

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
