import { ScimMessages, type ScimAuditEntry, type ScimSettings } from '@digicard/contracts';
import { Button } from '@digicard/ui';
import { useState } from 'react';
import { ActionOutcome, useAction } from '../../api/use-action';
import { useOwnerData } from '../../api/use-owner-data';
import { useOwnerPages } from '../../api/use-owner-pages';
import { LoadFailed } from '../../site/components/load-failed';
import { LoadMore } from '../../site/components/load-more';
import { fetchScimAudit, fetchScimSettings } from '../api/scim';
import { useIssueScimToken, useRevokeScimToken } from '../hooks/use-company-sign-in';
import { TeamQueries } from '../hooks/use-team';

const FAILED = 'That did not work. Please try again in a minute.';
const REPLACE_TOKEN = {
  title: 'Make a new SCIM token?',
  message: 'The current token stops working at once. Put the new one into your identity provider straight after.',
  confirmLabel: 'Make a new token',
};
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

/**
 * SCIM provisioning: the company's identity provider (Microsoft Entra ID, Okta, Google) adds, changes, deactivates and
 * removes reps by itself. The leader makes a token here (shown once, with the base URL to give the provider), can
 * replace or revoke it, and reads every call the provider made. (No <form> elements: the section sits inside the
 * editor's form.)
 */
export function ScimProvisioning() {
  const { state, retry } = useOwnerData<ScimSettings>(TeamQueries.scim, fetchScimSettings, 'Your SCIM settings could not be loaded.');
  return (
    <section aria-labelledby="tm-scim-title" className="tm-sso">
      <h3 id="tm-scim-title" className="tm-title">
        Automatic provisioning (SCIM)
      </h3>
      {state.status === 'loading' ? <p role="status">Loading...</p> : null}
      {state.status === 'failed' ? <LoadFailed message={state.message} retry={retry} /> : null}
      {state.status === 'loaded' ? <ScimToken settings={state.value} /> : null}
      {state.status === 'loaded' ? <ScimAuditList /> : null}
    </section>
  );
}

function ScimToken({ settings }: { settings: ScimSettings }) {
  const [token, setToken] = useState<string | null>(null);
  const issuing = useIssueScimToken();
  const revoking = useRevokeScimToken();
  const action = useAction();

  const issue = () =>
    action.run({
      // Replacing a token stops the one the identity provider has: asked first.
      confirm: settings.configured ? REPLACE_TOKEN : null,
      send: () => issuing.mutateAsync(),
      failed: (error) => (error.statusCode === 403 || error.statusCode === 0 ? error.message : FAILED),
      done: (made) => {
        setToken(made.token);
        return ScimMessages.tokenMade;
      },
    });

  const revoke = () =>
    action.run({
      confirm: {
        title: 'Revoke the SCIM token?',
        message: 'Your identity provider can no longer add, change or remove reps. Reps already added stay.',
        confirmLabel: 'Revoke',
      },
      send: () => revoking.mutateAsync(),
      failed: (error) => (error.statusCode === 0 ? error.message : FAILED),
      done: (revoked) => {
        setToken(null);
        return revoked.message;
      },
    });

  return (
    <div className="tm-sso__form" role="group" aria-label="SCIM token">
      <p>
        Connect your identity provider (Microsoft Entra ID, Okta, Google) so that joiners become reps and leavers are removed by themselves.
        In its provisioning settings, enter the tenant (base) URL <code>{settings.baseUrl}</code> and a token made here.
      </p>
      {settings.configured ? (
        <p className="pe-note">
          A token is set: made {when(settings.createdAt)}, last used {when(settings.lastUsedAt)}.
        </p>
      ) : (
        <p className="pe-note">No token yet: your identity provider cannot provision reps.</p>
      )}
      {token ? (
        <div role="group" aria-label="New SCIM token">
          <p>Copy the token now: it is not shown again.</p>
          <p>
            <code data-testid="scim-token">{token}</code>
          </p>
          <Button variant="secondary" onClick={() => void navigator.clipboard?.writeText(token)}>
            Copy token
          </Button>
        </div>
      ) : null}
      <div className="pe-actions">
        <Button disabled={action.pending} onClick={() => void issue()}>
          {settings.configured ? 'Make a new token' : 'Make a SCIM token'}
        </Button>
        {settings.configured ? (
          <Button variant="secondary" disabled={action.pending} onClick={() => void revoke()}>
            Revoke token
          </Button>
        ) : null}
      </div>
      <ActionOutcome action={action} />
    </div>
  );
}

function ScimAuditList() {
  const { state, retry, hasMore, more, loadMore } = useOwnerPages<'entries', ScimAuditEntry>(
    TeamQueries.scimAudit,
    'entries',
    fetchScimAudit,
    'The SCIM activity could not be loaded.',
  );
  return (
    <div aria-label="SCIM activity" role="group">
      <h4 className="tm-title">Provisioning activity</h4>
      {state.status === 'loading' ? <p role="status">Loading...</p> : null}
      {state.status === 'failed' ? <LoadFailed message={state.message} retry={retry} /> : null}
      {state.status === 'loaded' && state.value.entries.length === 0 ? (
        <p className="pe-list__empty">No calls from your identity provider yet.</p>
      ) : null}
      {state.status === 'loaded' && state.value.entries.length > 0 ? (
        <>
          {/* Scrolls on its own when a row is wider than the section (a user's id in the path): the page does not. */}
          <div className="an-scroll">
            <table className="an-table tm-audit">
              <caption className="ui-visually-hidden">Calls from your identity provider, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Request</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">User</th>
                </tr>
              </thead>
              <tbody>
                {state.value.entries.map((entry) => (
                  <tr key={entry.id}>
                    <td>{new Date(entry.at).toLocaleString()}</td>
                    <td>
                      <code>
                        {entry.method} {entry.path}
                      </code>
                    </td>
                    <td>
                      {entry.status} {entry.outcome}
                    </td>
                    <td>{entry.userName ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <LoadMore list="calls" hasMore={hasMore} more={more} onLoadMore={() => void loadMore()} />
        </>
      ) : null}
    </div>
  );
}
