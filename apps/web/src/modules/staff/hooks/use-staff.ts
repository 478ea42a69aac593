import type { PrintOrder, StaffAuditEntry, StaffRefund } from '@digicard/contracts';
import { useCallback } from 'react';
import { useApiMutation } from '../../api/use-api-mutation';
import { useOwnerPages } from '../../api/use-owner-pages';
import { fetchAccountAudit, fetchFailedProofs, fetchRefundsDue, renderProofAgain } from '../api/staff';

export const StaffQueries = {
  failedProofs: ['staff', 'failed-proofs'],
  refundsDue: ['staff', 'refunds-due'],
  audit: (accountId: string) => ['staff', 'audit', accountId],
  teamSignIn: (accountId: string) => ['staff', 'team-sign-in', accountId],
} as const;

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
