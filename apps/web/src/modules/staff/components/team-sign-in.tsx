import type { TeamSignInState } from '@digicard/contracts';
import { Button, confirm, FormAlert } from '@digicard/ui';
import { useCallback, useState } from 'react';
import { useApiMutation } from '../../api/use-api-mutation';
import { useOwnerData } from '../../api/use-owner-data';
import { LoadFailed } from '../../site/components/load-failed';
import { fetchTeamSignIn, turnTeamSignInOff } from '../api/staff';
import { StaffQueries } from '../hooks/use-staff';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-ZA') : 'never');

export const TEAM_SIGN_IN_FAILED_MESSAGE = 'The team’s sign-in settings could not be loaded.';

/**
 * A team leader's company sign-in (OpenID Connect) and SCIM provisioning as support sees them: configured, required,
 * the token's dates; and turning either off (the settings, or the token, are removed; the leader can set them up again).
 * Read as the console's other sections are (a query: "Loading...", or why it failed and "Try again"); turning off is a
 * mutation whose answer is shown at once.
 */
export function TeamSignIn({ accountId }: { accountId: string }) {
  const load = useCallback(() => fetchTeamSignIn(accountId), [accountId]);
  const { state, retry } = useOwnerData<TeamSignInState>(StaffQueries.teamSignIn(accountId), load, TEAM_SIGN_IN_FAILED_MESSAGE);
  const [failure, setFailure] = useState<string | null>(null);
  const off = useApiMutation(
    (what: 'sso' | 'scim') => turnTeamSignInOff(accountId, { sso: what === 'sso', scim: what === 'scim' }),
    (data, client) => client.setQueryData(StaffQueries.teamSignIn(accountId), data),
  );

  const turnOff = async (what: 'sso' | 'scim') => {
    const agreed = await confirm({
      title: what === 'sso' ? 'Turn company sign-in off?' : 'Turn SCIM provisioning off?',
      message:
        what === 'sso'
          ? 'The team’s provider settings are removed: its reps sign in with their passwords again.'
          : 'The team’s SCIM token is revoked: its identity provider can no longer provision reps.',
      confirmLabel: 'Turn off',
    });
    if (!agreed) return;
    setFailure(null);
    const result = await off.mutateAsync(what);
    if (!result.ok) setFailure(result.error.message);
  };
  const busy = off.isPending;

  return (
    <section className="staff-console__team-sign-in" aria-labelledby="staff-team-sign-in-title">
      <h3 id="staff-team-sign-in-title">Team sign-in and provisioning</h3>
      {state.status === 'loading' ? <p role="status">Loading...</p> : null}
      {state.status === 'failed' ? <LoadFailed message={state.message} retry={retry} /> : null}
      {state.status === 'loaded' ? (
        <>
          <FormAlert>{failure}</FormAlert>
          <dl className="staff-console__facts">
            <dt>Company sign-in (SSO)</dt>
            <dd data-testid="staff-sso">
              {state.value.sso.configured
                ? `configured (${state.value.sso.issuer ?? ''}), ${state.value.sso.required ? 'required' : 'not required'}`
                : 'off'}
            </dd>
            <dt>SCIM</dt>
            <dd data-testid="staff-scim">
              {state.value.scim.configured
                ? `token made ${when(state.value.scim.createdAt)}, last used ${when(state.value.scim.lastUsedAt)}`
                : 'off'}
            </dd>
          </dl>
          <div className="staff-console__actions">
            {state.value.sso.configured ? (
              <Button variant="secondary" disabled={busy} onClick={() => void turnOff('sso')}>
                Turn company sign-in off
              </Button>
            ) : null}
            {state.value.scim.configured ? (
              <Button variant="secondary" disabled={busy} onClick={() => void turnOff('scim')}>
                Turn SCIM off
              </Button>
            ) : null}
          </div>
        </>
      ) : null}
    </section>
  );
}
