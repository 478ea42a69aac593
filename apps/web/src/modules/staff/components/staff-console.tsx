import type { ApiError, StaffAccountDetail, StaffAccountSummary, StaffAuditEntry } from '@digicard/contracts';
import { Button, FormAlert, Notice, TextField } from '@digicard/ui';
import { useState, type FormEvent } from 'react';
import type { HttpResult } from '../../api/http';
import { getAccount, searchAccounts, setBusiness, setPartner, setRole, setVanityPaths } from '../api/staff';
import { FailedProofs } from './failed-proofs';
import { RefundsDue } from './refunds-due';
import { TeamSignIn } from './team-sign-in';

const changeNames: Record<StaffAuditEntry['change'], string> = {
  role: 'Role',
  partner: 'Partner',
  vanityPaths: 'Vanity paths',
  business: 'Business',
};

const shown = (value: unknown): string => {
  if (value === null || value === undefined) return '(none)';
  if (Array.isArray(value)) return value.length ? value.join(', ') : '(none)';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
};

const fieldError = (error: ApiError | null, field: string): string | undefined => error?.fieldErrors?.[field]?.join(' ');

/**
 * The staff console: find an account by email, username or name; open it; make it a partner, a team leader (or an
 * ordinary user again); set the vanity paths that lead to its profile and the business it inherits from. Every change
 * is audited by the service that owns it, listed under the account, newest first. Below: the print proofs that
 * failed to render, with "Render again".
 */
export default function StaffConsole() {
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<StaffAccountSummary[] | null>(null);
  const [searchError, setSearchError] = useState<ApiError | null>(null);
  const [detail, setDetail] = useState<StaffAccountDetail | null>(null);
  const [changeError, setChangeError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [paths, setPaths] = useState('');
  const [business, setBusinessField] = useState('');
  const [busy, setBusy] = useState(false);

  const show = (next: StaffAccountDetail) => {
    setDetail(next);
    // The list shows the account as it is now too (its role).
    setResults((list) => list?.map((a) => (a.id === next.account.id ? next.account : a)) ?? list);
    setPaths(next.profile?.vanityPaths.join(', ') ?? '');
    setBusinessField(next.profile?.businessUsername ?? '');
  };

  async function search(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const result = await searchAccounts(query);
    setBusy(false);
    if (result.ok) {
      setResults(result.data.accounts);
      setSearchError(null);
    } else {
      setResults(null);
      setSearchError(result.error);
    }
  }

  async function open(accountId: string) {
    setSaved(null);
    setChangeError(null);
    const result = await getAccount(accountId);
    if (result.ok) show(result.data);
    else setChangeError(result.error);
  }

  async function change(what: string, request: () => Promise<HttpResult<StaffAccountDetail>>) {
    setBusy(true);
    setSaved(null);
    const result = await request();
    setBusy(false);
    if (result.ok) {
      show(result.data);
      setChangeError(null);
      setSaved(`${what} saved.`);
    } else {
      setChangeError(result.error);
    }
  }

  const account = detail?.account;
  const profile = detail?.profile;
  const roleChangeable = account?.role === 'user' || account?.role === 'teamLeader';

  return (
    <div className="staff-console">
      <form className="staff-console__search" onSubmit={(e) => void search(e)} noValidate aria-labelledby="staff-search-title">
        <h2 id="staff-search-title">Find an account</h2>
        <TextField
          label="Email, username or name"
          name="query"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          error={fieldError(searchError, 'query')}
        />
        <FormAlert>{searchError && !searchError.fieldErrors ? searchError.message : null}</FormAlert>
        <Button type="submit" disabled={busy}>
          Search
        </Button>
      </form>

      {results ? (
        <section className="staff-console__results" aria-labelledby="staff-results-title">
          <h2 id="staff-results-title">{results.length === 1 ? '1 account found' : `${results.length} accounts found`}</h2>
          {results.length === 0 ? <p>No account matches. Try part of the email, the username or the name.</p> : null}
          <ul className="staff-console__list">
            {results.map((a) => (
              <li key={a.id} className="staff-console__row">
                <span>
                  <strong>{`${a.firstName} ${a.lastName}`}</strong> {a.username} · {a.email} · {a.role}
                </span>
                <Button variant="secondary" onClick={() => void open(a.id)} aria-label={`Open ${a.username}`}>
                  Open
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {account ? (
        <section className="staff-console__account" aria-labelledby="staff-account-title">
          <h2 id="staff-account-title">{`${account.firstName} ${account.lastName} (${account.username})`}</h2>
          {saved ? (
            <Notice tone="success" role="status">
              {saved}
            </Notice>
          ) : null}
          <FormAlert>{changeError && !changeError.fieldErrors ? changeError.message : null}</FormAlert>
          <dl className="staff-console__facts">
            <dt>Email</dt>
            <dd>{account.email}</dd>
            <dt>Role</dt>
            <dd data-testid="staff-role">{account.role}</dd>
            <dt>Tier</dt>
            <dd>{profile?.membership ?? '(no profile)'}</dd>
            <dt>Partner</dt>
            <dd data-testid="staff-partner">{profile ? (profile.isPartner ? 'yes' : 'no') : '(no profile)'}</dd>
          </dl>

          <div className="staff-console__actions">
            {profile ? (
              <Button disabled={busy} onClick={() => void change('Partner', () => setPartner(account.id, !profile.isPartner))}>
                {profile.isPartner ? 'Remove partner' : 'Make partner'}
              </Button>
            ) : null}
            {roleChangeable ? (
              <Button
                disabled={busy}
                onClick={() => void change('Role', () => setRole(account.id, account.role === 'teamLeader' ? 'user' : 'teamLeader'))}
              >
                {account.role === 'teamLeader' ? 'Make ordinary user' : 'Make team leader'}
              </Button>
            ) : (
              <p className="staff-console__note">This account is {account.role}: its role is not changed here.</p>
            )}
          </div>

          {profile ? (
            <>
              <form
                className="staff-console__form"
                noValidate
                onSubmit={(e) => {
                  e.preventDefault();
                  const list = paths.split(/[\s,]+/).filter(Boolean);
                  void change('Vanity paths', () => setVanityPaths(account.id, list));
                }}
              >
                <TextField
                  label="Vanity paths"
                  hint="Separated by commas, e.g. pinnacle-point-2; each leads to this profile."
                  name="paths"
                  value={paths}
                  onChange={(e) => setPaths(e.target.value)}
                  error={fieldError(changeError, 'paths')}
                />
                <Button type="submit" variant="secondary" disabled={busy}>
                  Save vanity paths
                </Button>
              </form>
              <form
                className="staff-console__form"
                noValidate
                onSubmit={(e) => {
                  e.preventDefault();
                  void change('Business', () => setBusiness(account.id, business.trim() ? business.trim() : null));
                }}
              >
                <TextField
                  label="Inherits from business (username)"
                  hint="Leave empty for none."
                  name="business"
                  value={business}
                  onChange={(e) => setBusinessField(e.target.value)}
                  error={fieldError(changeError, 'businessUsername')}
                />
                <Button type="submit" variant="secondary" disabled={busy}>
                  Save business
                </Button>
              </form>
            </>
          ) : null}

          {account.role === 'teamLeader' ? <TeamSignIn key={account.id} accountId={account.id} /> : null}

          <table className="staff-console__audit">
            <caption>Changes by staff</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {detail.audit.length === 0 ? (
                <tr>
                  <td colSpan={5}>No changes yet.</td>
                </tr>
              ) : (
                detail.audit.map((e) => (
                  <tr key={e.id}>
                    <td>{new Date(e.at).toLocaleString('en-ZA')}</td>
                    <td>{e.staffUsername ?? e.staffAccountId}</td>
                    <td>{changeNames[e.change]}</td>
                    <td>{shown(e.before)}</td>
                    <td>{shown(e.after)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </section>
      ) : null}
      <FailedProofs />
      <RefundsDue />
    </div>
  );
}
