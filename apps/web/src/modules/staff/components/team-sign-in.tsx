import type { TeamSignInState } from '@digicard/contracts';
import { Button, confirm, FormAlert } from '@digicard/ui';
import { useEffect, useState } from 'react';
import { fetchTeamSignIn, turnTeamSignInOff } from '../api/staff';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-ZA') : 'never');

/**
 * A team leader's company sign-in (OpenID Connect) and SCIM provisioning as support sees them: configured, required,
 * the token's dates; and turning either off (the settings, or the token, are removed; the leader can set them up again).
 */
export function TeamSignIn({ accountId }: { accountId: string }) {
  const [state, setState] = useState<TeamSignInState | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void fetchTeamSignIn(accountId).then((result) => {
      if (!live) return;
      if (result.ok) setState(result.data);
      else setFailure(result.error.message);
    });
    return () => {
      live = false;
    };
  }, [accountId]);

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
    setBusy(true);
    setFailure(null);
    const result = await turnTeamSignInOff(accountId, { sso: what === 'sso', scim: what === 'scim' });
    setBusy(false);
    if (result.ok) setState(result.data);
    else setFailure(result.error.message);
  };

  return (
    <section className="staff-console__team-sign-in" aria-labelledby="staff-team-sign-in-title">
      <h3 id="staff-team-sign-in-title">Team sign-in and provisioning</h3>
      <FormAlert>{failure}</FormAlert>
      {state ? (
        <>
          <dl className="staff-console__facts">
            <dt>Company sign-in (SSO)</dt>
            <dd data-testid="staff-sso">
              {state.sso.configured ? `configured (${state.sso.issuer ?? ''}), ${state.sso.required ? 'required' : 'not required'}` : 'off'}
            </dd>
            <dt>SCIM</dt>
            <dd data-testid="staff-scim">
              {state.scim.configured ? `token made ${when(state.scim.createdAt)}, last used ${when(state.scim.lastUsedAt)}` : 'off'}
            </dd>
          </dl>
          <div className="staff-console__actions">
            {state.sso.configured ? (
              <Button variant="secondary" disabled={busy} onClick={() => void turnOff('sso')}>
                Turn company sign-in off
              </Button>
            ) : null}
            {state.scim.configured ? (
              <Button variant="secondary" disabled={busy} onClick={() => void turnOff('scim')}>
                Turn SCIM off
              </Button>
            ) : null}
          </div>
        </>
      ) : failure ? null : (
        <p role="status">Loading...</p>
      )}
    </section>
  );
}
