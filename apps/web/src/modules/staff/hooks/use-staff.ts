import {
  ErrorCode,
  type ApiError,
  type PrintOrder,
  type StaffAccountDetail,
  type StaffAccountSummary,
  type StaffAuditEntry,
  type StaffRefund,
} from '@digicard/contracts';
import {
  infiniteQueryOptions,
  keepPreviousData,
  skipToken,
  useInfiniteQuery,
  useQuery,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { useCallback } from 'react';
import type { HttpResult } from '../../api/http';
import { ApiQueryError } from '../../api/query-client';
import { useApiMutation } from '../../api/use-api-mutation';
import { queryFnOf } from '../../api/use-owner-data';
import { useOwnerPages } from '../../api/use-owner-pages';
import { fetchAccountAudit, fetchFailedProofs, fetchRefundsDue, getAccount, renderProofAgain, searchAccounts } from '../api/staff';

export const StaffQueries = {
  failedProofs: ['staff', 'failed-proofs'],
  refundsDue: ['staff', 'refunds-due'],
  /** Every search's answer (to show an account's change in each list that holds it). */
  searches: ['staff', 'search'],
  /** The accounts a search found, a page at a time; keyed by the search's terms. */
  search: (query: string) => ['staff', 'search', query],
  account: (accountId: string) => ['staff', 'account', accountId],
  audit: (accountId: string) => ['staff', 'audit', accountId],
  teamSignIn: (accountId: string) => ['staff', 'team-sign-in', accountId],
} as const;

type SearchPage = { accounts: StaffAccountSummary[]; nextCursor: string | null };

/**
 * The search for `query`'s accounts (newest first) as an infinite query: its first page, then the next ones ("Load more
 * accounts") after the cursor of the last.
 */
export const staffSearch = (query: string) =>
  infiniteQueryOptions({
    queryKey: StaffQueries.search(query),
    queryFn: ({ pageParam }: { pageParam: string | null }): Promise<SearchPage> => queryFnOf(() => searchAccounts(query, pageParam))(),
    initialPageParam: null as string | null,
    getNextPageParam: (last: SearchPage) => last.nextCursor,
  });

/** What a failed query or fetch said: the helper's ApiError (no answer at all is status 0). */
export function apiErrorOf(error: unknown): ApiError {
  return error instanceof ApiQueryError ? error.apiError : { statusCode: 500, code: ErrorCode.Internal, message: String(error) };
}

/**
 * The accounts the console's search found, for the terms searched last (null: none yet). The search itself is sent
 * by the form (`client.fetchInfiniteQuery(staffSearch(query))`, so that a refusal lands on its field); this reads
 * what it answered and reads nothing by itself ("Load more accounts" reads the next page).
 */
export function useStaffSearch(query: string | null) {
  return useInfiniteQuery({ ...staffSearch(query ?? ''), enabled: query !== null, staleTime: Infinity });
}

/**
 * The account opened in the console (null: none), read each time it is opened; while the next one is read the one
 * opened before stays shown.
 */
export function useStaffAccount(accountId: string | null) {
  return useQuery({
    queryKey: StaffQueries.account(accountId ?? ''),
    queryFn: accountId === null ? skipToken : queryFnOf(() => getAccount(accountId)),
    placeholderData: keepPreviousData,
  });
}

/** The account as it is now in every search's list that holds it (its role, its name). */
export function showInSearches(client: QueryClient, account: StaffAccountSummary): void {
  client.setQueriesData<InfiniteData<SearchPage>>({ queryKey: StaffQueries.searches }, (data) =>
    data?.pages.some((p) => p.accounts.some((a) => a.id === account.id && a !== account))
      ? { ...data, pages: data.pages.map((p) => ({ ...p, accounts: p.accounts.map((a) => (a.id === account.id ? account : a)) })) }
      : data,
  );
}

/**
 * A change of an account (its role, partner, vanity paths, business): the server answers with the account as it is
 * now, which the console shows (the account and its row in the search), and the audit is read again from its first
 * page (the change is its newest entry).
 */
export const useChangeAccount = () =>
  useApiMutation(
    (request: () => Promise<HttpResult<StaffAccountDetail>>) => request(),
    (data, client) => {
      client.setQueryData(StaffQueries.account(data.account.id), data);
      showInSearches(client, data.account);
      void client.invalidateQueries({ queryKey: StaffQueries.audit(data.account.id) });
    },
  );

export const AUDIT_FAILED_MESSAGE = 'The changes by staff could not be loaded.';

/** The account's audited changes, newest first, a page at a time ("Load more changes"). */
export function useAccountAudit(accountId: string) {
  const load = useCallback((cursor: string | null) => fetchAccountAudit(accountId, cursor), [accountId]);
  return useOwnerPages<'entries', StaffAuditEntry>(StaffQueries.audit(accountId), 'entries', load, AUDIT_FAILED_MESSAGE);
}

export const useFailedProofs = () =>
  useOwnerPages<'orders', PrintOrder>(StaffQueries.failedProofs, 'orders', fetchFailedProofs, 'The failed proofs could not be loaded.');

export const useRefundsDue = () =>
  useOwnerPages<'payments', StaffRefund>(
    StaffQueries.refundsDue,
    'payments',
    fetchRefundsDue,
    'The payments to refund could not be loaded.',
  );

/** "Render again": the proof leaves the failed list (it is read again). */
export const useRenderProofAgain = () =>
  useApiMutation(renderProofAgain, (_data, client) => void client.invalidateQueries({ queryKey: StaffQueries.failedProofs }));
