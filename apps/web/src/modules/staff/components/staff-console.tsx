import {
  SetBusinessSchema,
  SetVanityPathsSchema,
  StaffMessages,
  StaffRevocableRoles,
  StaffSearchSchema,
  type ApiError,
  type StaffAccountDetail,
  type StaffAccountSummary,
  type StaffAuditEntry,
  type StaffRevocableRole,
} from '@digicard/contracts';
import { Button, confirm, FormAlert, Notice, TextField } from '@digicard/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { z } from 'zod';
import type { HttpResult } from '../../api/http';
import { useContractForm } from '../../forms/hooks/use-contract-form';
import { applyApiError } from '../../forms/utils/apply-api-error';
import { typedList } from '../../forms/utils/typed-list';
import { useSession } from '../../session/hooks/use-session';
import { revokeRole, setBusiness, setPartner, setRole, setVanityPaths } from '../api/staff';
import { LoadFailed } from '../../site/components/load-failed';
import { LoadMore } from '../../site/components/load-more';
import {
  apiErrorOf,
  showInSearches,
  StaffQueries,
  staffSearch,
  useAccountAudit,
  useChangeAccount,
  useStaffAccount,
  useStaffSearch,
} from '../hooks/use-staff';
import { FailedProofs } from './failed-proofs';
import { RefundsDue } from './refunds-due';
import { TeamSignIn } from './team-sign-in';
import '../staff.css';
import { QueryProvider } from '../../api/query-client';

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

const isRevocable = (role: string): role is StaffRevocableRole => (StaffRevocableRoles as readonly string[]).includes(role);

/** What taking a role away ends, said in the confirmation. */
const revokeEffects: Record<StaffRevocableRole, string> = {
  print: 'They can no longer open the print console or change print orders.',
  staff: 'They can no longer open the staff console.',
};

const SEARCH_FIELDS = ['query'] as const;
const PATHS_FIELDS = ['paths'] as const;
const BUSINESS_FIELDS = ['businessUsername'] as const;

/**
 * The vanity-paths form: one text (separated by commas), checked path by path with the contract's
 * SetVanityPathsSchema; its error names the wrong path, as the server does ("dashboard: That path is ...").
 */
export const VanityPathsFormSchema = z.object({ paths: typedList(SetVanityPathsSchema.shape.paths) });

/** The business form: the contract's SetBusinessSchema over a text field, an empty one meaning none. */
export const BusinessFormSchema = z
  .object({ businessUsername: z.string() })
  .transform(({ businessUsername }) => ({ businessUsername: businessUsername.trim() || null }))
  .pipe(SetBusinessSchema);

/**
 * The staff console: find an account by email, username or name; open it; make it a partner, a team leader (or an
 * ordinary user again); take a print or staff role away (after a confirmation; not one's own staff role); set the
 * vanity paths that lead to its profile and the business it inherits from. Every change is audited by the service that
 * owns it, listed under the account, newest first, a page at a time. Below: the print proofs that
 * failed to render, with "Render again". Each form is react-hook-form over the contract's schema; the server's field
 * errors go on their fields.
 */
function StaffConsole() {
  const { user } = useSession();
  const queryClient = useQueryClient();
  /** The search the list answers (its next page follows it, whatever the field holds now); null: none, or it failed. */
  const [searched, setSearched] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);
  const [searchAlert, setSearchAlert] = useState<string | null>(null);
  const [accountId, setAccountId] = useState<string | null>(null);
  const [changeAlert, setChangeAlert] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const searchForm = useContractForm(StaffSearchSchema, { query: '' });
  const pathsForm = useContractForm(VanityPathsFormSchema, { paths: '' });
  const businessForm = useContractForm(BusinessFormSchema, { businessUsername: '' });
  const found = useStaffSearch(searched);
  const opened = useStaffAccount(accountId);
  const changeAccount = useChangeAccount();
  const busy = searching || changeAccount.isPending;

  // The account as it was read (opened, or changed): its forms show it, and so does its row in the list (its role).
  const detail = opened.data;
  const { reset: resetPaths } = pathsForm;
  const { reset: resetBusiness } = businessForm;
  useEffect(() => {
    if (!detail) return;
    showInSearches(queryClient, detail.account);
    resetPaths({ paths: detail.profile?.vanityPaths.join(', ') ?? '' });
    resetBusiness({ businessUsername: detail.profile?.businessUsername ?? '' });
  }, [detail, queryClient, resetPaths, resetBusiness]);

  const search = searchForm.handleSubmit(async ({ query }) => {
    setSearching(true);
    try {
      // Sent here (a new search reads its first page only), so that a refusal lands on the field; the list reads it.
      await queryClient.fetchInfiniteQuery({ ...staffSearch(query), pages: 1 });
      setSearched(query);
      setSearchAlert(null);
    } catch (error) {
      setSearched(null);
      const apiError = apiErrorOf(error);
      setSearchAlert(applyApiError(apiError, SEARCH_FIELDS, searchForm.setError, apiError.message));
    } finally {
      setSearching(false);
    }
  });

  const results = found.data?.pages.flatMap((p) => p.accounts) ?? null;
  const more = {
    loading: found.isFetchingNextPage,
    failed: found.isFetchNextPageError ? apiErrorOf(found.error).message : null,
  };

  function open(id: string) {
    setSaved(null);
    setChangeAlert(null);
    // Read again each time it is opened (the one shown meanwhile stays).
    void queryClient.invalidateQueries({ queryKey: StaffQueries.account(id), exact: true });
    setAccountId(id);
  }
  const openFailed = opened.isError ? apiErrorOf(opened.error).message : null;

  /** Makes a change; a refusal is said in the account's alert, or (a form's) on its fields. */
  async function change(
    what: string,
    request: () => Promise<HttpResult<StaffAccountDetail>>,
    onRefused?: (error: ApiError) => string | null,
  ) {
    setSaved(null);
    setChangeAlert(null);
    const result = await changeAccount.mutateAsync(request);
    if (result.ok) setSaved(`${what} saved.`);
    else setChangeAlert(onRefused ? onRefused(result.error) : result.error.message);
  }

  /** Takes the print or staff role away, once the staff member has confirmed it: the account is an ordinary user. */
  async function revoke(target: StaffAccountSummary, role: StaffRevocableRole) {
    const agreed = await confirm({
      title: `Remove the ${role} access of ${target.firstName} ${target.lastName} (${target.username})?`,
      message: `${revokeEffects[role]} The account becomes an ordinary user at once, signed in or not.`,
      confirmLabel: `Remove ${role} access`,
    });
    if (agreed) await change('Role', () => revokeRole(target.id, role));
  }

  const account = detail?.account;
  const profile = detail?.profile;
  const roleChangeable = account?.role === 'user' || account?.role === 'teamLeader';
  const revocableRole = account && isRevocable(account.role) ? account.role : null;

  return (
    <div className="staff-console">
      <form
        className="staff-console__search"
        onSubmit={(e) => {
          setSearchAlert(null);
          void search(e);
        }}
        noValidate
        aria-labelledby="staff-search-title"
      >
        <h2 id="staff-search-title">Find an account</h2>
        <TextField label="Email, username or name" error={searchForm.formState.errors.query?.message} {...searchForm.register('query')} />
        <FormAlert>{searchAlert}</FormAlert>
        <Button type="submit" disabled={busy}>
          Search
        </Button>
      </form>

      {results ? (
        <section className="staff-console__results" aria-labelledby="staff-results-title">
          <h2 id="staff-results-title">
            {`${results.length === 1 ? '1 account found' : `${results.length} accounts found`}${found.hasNextPage ? ' so far' : ''}`}
          </h2>
          {results.length === 0 ? <p>No account matches. Try part of the email, the username or the name.</p> : null}
          <ul className="staff-console__list">
            {results.map((a) => (
              <li key={a.id} className="staff-console__row">
                <span>
                  <strong>{`${a.firstName} ${a.lastName}`}</strong> {a.username} · {a.email} · {a.role}
                </span>
                <Button variant="secondary" onClick={() => open(a.id)} aria-label={`Open ${a.username}`}>
                  Open
                </Button>
              </li>
            ))}
          </ul>
          <LoadMore list="accounts" hasMore={found.hasNextPage} more={more} onLoadMore={() => void found.fetchNextPage()} />
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
          <FormAlert>{changeAlert ?? openFailed}</FormAlert>
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
            ) : revocableRole && account.id === user?.id ? (
              <p className="staff-console__note">{StaffMessages.revokeOwnRole}</p>
            ) : revocableRole ? (
              <Button disabled={busy} onClick={() => void revoke(account, revocableRole)}>
                {`Remove ${revocableRole} access`}
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
                onSubmit={(e) =>
                  void pathsForm.handleSubmit(({ paths }) =>
                    change(
                      'Vanity paths',
                      () => setVanityPaths(account.id, paths),
                      (error) => applyApiError(error, PATHS_FIELDS, pathsForm.setError, error.message),
                    ),
                  )(e)
                }
              >
                <TextField
                  label="Vanity paths"
                  hint="Separated by commas, e.g. pinnacle-point-2; each leads to this profile."
                  error={pathsForm.formState.errors.paths?.message}
                  {...pathsForm.register('paths')}
                />
                <Button type="submit" variant="secondary" disabled={busy}>
                  Save vanity paths
                </Button>
              </form>
              <form
                className="staff-console__form"
                noValidate
                onSubmit={(e) =>
                  void businessForm.handleSubmit(({ businessUsername }) =>
                    change(
                      'Business',
                      () => setBusiness(account.id, businessUsername),
                      (error) => applyApiError(error, BUSINESS_FIELDS, businessForm.setError, error.message),
                    ),
                  )(e)
                }
              >
                <TextField
                  label="Inherits from business (username)"
                  hint="Leave empty for none."
                  error={businessForm.formState.errors.businessUsername?.message}
                  {...businessForm.register('businessUsername')}
                />
                <Button type="submit" variant="secondary" disabled={busy}>
                  Save business
                </Button>
              </form>
            </>
          ) : null}

          {account.role === 'teamLeader' ? <TeamSignIn key={`sign-in:${account.id}`} accountId={account.id} /> : null}

          <StaffAudit key={`audit:${account.id}`} accountId={account.id} />
        </section>
      ) : (
        <FormAlert>{openFailed}</FormAlert>
      )}
      <FailedProofs />
      <RefundsDue />
    </div>
  );
}

/** The account's audited changes (identity's and profiles' as one list), newest first, a page at a time. */
function StaffAudit({ accountId }: { accountId: string }) {
  const { state, retry, hasMore, more, loadMore } = useAccountAudit(accountId);
  if (state.status === 'loading') return <p role="status">Loading the changes by staff...</p>;
  if (state.status === 'failed') return <LoadFailed message={state.message} retry={retry} />;
  const entries = state.value.entries;
  return (
    <>
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
          {entries.length === 0 ? (
            <tr>
              <td colSpan={5}>No changes yet.</td>
            </tr>
          ) : (
            entries.map((e) => (
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
      <LoadMore list="changes" hasMore={hasMore} more={more} onLoadMore={() => void loadMore()} />
    </>
  );
}

/** The chunk's entry: the section's server state goes through TanStack Query (`query-client.tsx`). */
export default function StaffConsoleWithQueries() {
  return (
    <QueryProvider>
      <StaffConsole />
    </QueryProvider>
  );
}
