import {
  SaveSsoSettingsSchema,
  SsoMessages,
  SsoPresets,
  WebRoutes,
  type ApiError,
  type SaveSsoSettings,
  type SsoSettings,
} from '@digicard/contracts';
import { Button, TextField } from '@digicard/ui';
import { ActionOutcome, useAction } from '../../api/use-action';
import { useContractForm } from '../../forms/hooks/use-contract-form';
import { applyApiError } from '../../forms/utils/apply-api-error';
import { namingListItems, typedList } from '../../forms/utils/typed-list';
import { LoadFailed } from '../../site/components/load-failed';
import { useRemoveSso, useSaveSso, useSsoSettings } from '../hooks/use-company-sign-in';

const FAILED = 'That did not work. Please try again in a minute.';

/**
 * Company sign-in (single sign-on with OpenID Connect): the leader connects the company's identity provider (a preset
 * for Google Workspace or Microsoft Entra ID, or any OpenID Connect provider), the email domains that sign in through
 * it, and whether reps must use it. The client secret is write-only: the page never gets it back.
 * (No <form> elements: the section sits inside the editor's form.)
 */
export function CompanySignIn() {
  const { state, retry } = useSsoSettings();
  return (
    <section aria-labelledby="tm-sso-title" className="tm-sso">
      <h3 id="tm-sso-title" className="tm-title">
        Company sign-in (single sign-on)
      </h3>
      {state.status === 'loading' ? <p role="status">Loading...</p> : null}
      {state.status === 'failed' ? <LoadFailed message={state.message} retry={retry} /> : null}
      {state.status === 'loaded' ? <SsoForm settings={state.value} /> : null}
    </section>
  );
}

/** The form: the contract's SaveSsoSettingsSchema, with the email domains typed in one field. */
export const SsoFormSchema = SaveSsoSettingsSchema.extend({ domains: typedList(SaveSsoSettingsSchema.shape.domains) });
const SSO_FIELDS = ['issuer', 'clientId', 'clientSecret', 'domains', 'required'] as const;

/** What a refusal that is not about a field says: a 403's, a 503's or a network failure's own words, else FAILED. */
function failureText(error: ApiError): string {
  return error.statusCode === 403 || error.statusCode === 503 || error.statusCode === 0 ? error.message : FAILED;
}

function SsoForm({ settings }: { settings: SsoSettings }) {
  const form = useContractForm(SsoFormSchema, {
    issuer: settings.issuer,
    clientId: settings.clientId,
    clientSecret: '',
    domains: settings.domains.join(', '),
    required: settings.required,
  });
  const { errors } = form.formState;
  const saving = useSaveSso();
  const removal = useRemoveSso();
  const action = useAction();

  const onValid = (values: SaveSsoSettings) =>
    action.run({
      send: () => saving.mutateAsync(values),
      failed: (error) => applyApiError(namingListItems(error, 'domains', values.domains), SSO_FIELDS, form.setError, failureText(error)),
      done: (saved) => {
        form.reset({ ...form.getValues(), clientSecret: '', domains: saved.domains.join(', ') });
        return SsoMessages.saved;
      },
    });
  const save = () => {
    action.clear();
    void form.handleSubmit(onValid)();
  };

  const remove = () =>
    action.run({
      confirm: {
        title: 'Remove company sign-in?',
        message: 'Your reps will sign in with their DigiCard passwords again.',
        confirmLabel: 'Remove',
      },
      send: () => removal.mutateAsync(),
      failed: (error) => (error.statusCode === 0 ? error.message : FAILED),
      done: (removed) => {
        form.reset({ issuer: '', clientId: '', clientSecret: '', domains: '', required: false });
        return removed.message;
      },
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
          <Button key={preset.id} variant="secondary" onClick={() => form.setValue('issuer', preset.issuer)}>
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
        error={errors.issuer?.message}
        {...form.register('issuer')}
      />
      <TextField label="Client ID" autoComplete="off" error={errors.clientId?.message} {...form.register('clientId')} />
      <TextField
        label="Client secret"
        type="password"
        autoComplete="new-password"
        hint={
          settings.hasClientSecret
            ? 'A secret is saved. Leave this empty to keep it, or enter a new one to replace it.'
            : 'Stored encrypted; never shown again.'
        }
        error={errors.clientSecret?.message}
        {...form.register('clientSecret')}
      />
      <TextField
        label="Email domains"
        autoComplete="off"
        placeholder="example.co.za"
        hint="Your reps' work email domains, separated by commas. A rep who types such an address on the login page is sent to your provider."
        error={errors.domains?.message}
        {...form.register('domains')}
      />
      <div className="pe-check">
        <input id="tm-sso-required" type="checkbox" {...form.register('required')} />
        <label htmlFor="tm-sso-required">Require SSO for the team (reps can no longer sign in with a password; you still can)</label>
      </div>
      <div className="pe-actions">
        <Button disabled={action.pending} onClick={save}>
          {action.pending ? 'Saving...' : 'Save company sign-in'}
        </Button>
        {settings.configured ? (
          <Button variant="secondary" disabled={action.pending} onClick={() => void remove()}>
            Remove company sign-in
          </Button>
        ) : null}
      </div>
      <ActionOutcome action={action} />
      {teamLink ? (
        <p className="pe-note">
          Your team&apos;s sign-in link (share it with your reps): <code>{teamLink}</code>
        </p>
      ) : null}
    </div>
  );
}
