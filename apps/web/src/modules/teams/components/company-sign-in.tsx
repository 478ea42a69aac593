import { SsoMessages, SsoPresets, WebRoutes, type SsoSettings } from '@digicard/contracts';
import { Button, confirm, FormAlert, Notice, TextField } from '@digicard/ui';
import { useState } from 'react';
import { useOwnerData } from '../../api/use-owner-data';
import { LoadFailed } from '../../site/components/load-failed';
import { fetchSsoSettings, removeSsoSettings, saveSsoSettings } from '../api/sso';

const FAILED = 'That did not work. Please try again in a minute.';
type Errors = Record<string, string[] | undefined>;

/**
 * Company sign-in (single sign-on with OpenID Connect): the leader connects the company's identity provider (a preset
 * for Google Workspace or Microsoft Entra ID, or any OpenID Connect provider), the email domains that sign in through
 * it, and whether reps must use it. The client secret is write-only: the page never gets it back.
 * (No <form> elements: the section sits inside the editor's form.)
 */
export function CompanySignIn() {
  const { state, retry, replace } = useOwnerData<SsoSettings>(fetchSsoSettings, 'Your company sign-in settings could not be loaded.');
  return (
    <section aria-labelledby="tm-sso-title" className="tm-sso">
      <h3 id="tm-sso-title" className="tm-title">
        Company sign-in (single sign-on)
      </h3>
      {state.status === 'loading' ? <p role="status">Loading...</p> : null}
      {state.status === 'failed' ? <LoadFailed message={state.message} retry={retry} /> : null}
      {state.status === 'loaded' ? <SsoForm settings={state.value} onSaved={replace} /> : null}
    </section>
  );
}

function SsoForm({ settings, onSaved }: { settings: SsoSettings; onSaved: (settings: SsoSettings) => void }) {
  const [issuer, setIssuer] = useState(settings.issuer);
  const [clientId, setClientId] = useState(settings.clientId);
  const [clientSecret, setClientSecret] = useState('');
  const [domains, setDomains] = useState(settings.domains.join(', '));
  const [required, setRequired] = useState(settings.required);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const [pending, setPending] = useState(false);

  const domainList = () =>
    domains
      .split(/[\s,;]+/)
      .map((d) => d.trim())
      .filter(Boolean);

  const save = async () => {
    setPending(true);
    setErrors({});
    setFailure(null);
    setMessage('');
    const result = await saveSsoSettings({ issuer, clientId, clientSecret, domains: domainList(), required });
    setPending(false);
    if (result.ok) {
      onSaved(result.data);
      setClientSecret('');
      setDomains(result.data.domains.join(', '));
      setMessage(SsoMessages.saved);
      return;
    }
    if (result.error.statusCode === 400 && result.error.fieldErrors) setErrors(result.error.fieldErrors);
    else
      setFailure(
        result.error.statusCode === 403 || result.error.statusCode === 503 || result.error.statusCode === 0 ? result.error.message : FAILED,
      );
  };

  const remove = async () => {
    const agreed = await confirm({
      title: 'Remove company sign-in?',
      message: 'Your reps will sign in with their DigiCard passwords again.',
      confirmLabel: 'Remove',
    });
    if (!agreed) return;
    setPending(true);
    setFailure(null);
    setMessage('');
    const result = await removeSsoSettings();
    setPending(false);
    if (!result.ok) return setFailure(result.error.statusCode === 0 ? result.error.message : FAILED);
    onSaved({
      ...settings,
      configured: false,
      teamId: null,
      issuer: '',
      clientId: '',
      hasClientSecret: false,
      domains: [],
      required: false,
    });
    setIssuer('');
    setClientId('');
    setDomains('');
    setRequired(false);
    setMessage(result.data.message);
  };

  const domainErrors = Object.entries(errors)
    .filter(([key]) => key === 'domains' || key.startsWith('domains.'))
    .map(([key, messages]) => {
      const index = Number(key.split('.')[1]);
      const domain = Number.isInteger(index) ? domainList()[index] : undefined;
      return `${domain ? `${domain}: ` : ''}${messages?.[0] ?? ''}`;
    });
  const teamLink = settings.teamId ? `${window.location.origin}${WebRoutes.login}?team=${settings.teamId}` : null;

  return (
    <div className="tm-sso__form" role="group" aria-label="Company sign-in">
      <p>
        Let your reps sign in with their work account (Google Workspace, Microsoft Entra ID or any OpenID Connect provider) instead of a
        DigiCard password. Register DigiCard as a web application with your provider, with this redirect URI:{' '}
        <code>{settings.redirectUri}</code>
      </p>
      <p className="pe-note">Start from your provider:</p>
      <div className="pe-actions" role="group" aria-label="Presets">
        {SsoPresets.map((preset) => (
          <Button key={preset.id} variant="secondary" onClick={() => setIssuer(preset.issuer)}>
            {preset.name}
          </Button>
        ))}
      </div>
      <TextField
        label="Issuer URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://accounts.google.com"
        hint="For Microsoft Entra ID, replace {tenant} with your directory (tenant) ID."
        value={issuer}
        error={errors['issuer']?.[0]}
        onChange={(e) => setIssuer(e.currentTarget.value)}
      />
      <TextField
        label="Client ID"
        autoComplete="off"
        value={clientId}
        error={errors['clientId']?.[0]}
        onChange={(e) => setClientId(e.currentTarget.value)}
      />
      <TextField
        label="Client secret"
        type="password"
        autoComplete="new-password"
        hint={
          settings.hasClientSecret
            ? 'A secret is saved. Leave this empty to keep it, or enter a new one to replace it.'
            : 'Stored encrypted; never shown again.'
        }
        value={clientSecret}
        error={errors['clientSecret']?.[0]}
        onChange={(e) => setClientSecret(e.currentTarget.value)}
      />
      <TextField
        label="Email domains"
        autoComplete="off"
        placeholder="example.co.za"
        hint="Your reps' work email domains, separated by commas. A rep who types such an address on the login page is sent to your provider."
        value={domains}
        error={domainErrors.length > 0 ? domainErrors.join(' ') : undefined}
        onChange={(e) => setDomains(e.currentTarget.value)}
      />
      <div className="pe-check">
        <input id="tm-sso-required" type="checkbox" checked={required} onChange={(e) => setRequired(e.currentTarget.checked)} />
        <label htmlFor="tm-sso-required">Require SSO for the team (reps can no longer sign in with a password; you still can)</label>
      </div>
      <div className="pe-actions">
        <Button disabled={pending} onClick={() => void save()}>
          {pending ? 'Saving...' : 'Save company sign-in'}
        </Button>
        {settings.configured ? (
          <Button variant="secondary" disabled={pending} onClick={() => void remove()}>
            Remove company sign-in
          </Button>
        ) : null}
      </div>
      {message ? (
        <Notice tone="success" role="status">
          {message}
        </Notice>
      ) : null}
      <FormAlert>{failure}</FormAlert>
      {teamLink ? (
        <p className="pe-note">
          Your team&apos;s sign-in link (share it with your reps): <code>{teamLink}</code>
        </p>
      ) : null}
    </div>
  );
}
