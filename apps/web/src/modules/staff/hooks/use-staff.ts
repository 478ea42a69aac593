import type { PrintOrder, StaffRefund } from '@digicard/contracts';
import { useApiMutation } from '../../api/use-api-mutation';
import { useOwnerPages } from '../../api/use-owner-pages';
import { fetchFailedProofs, fetchRefundsDue, renderProofAgain } from '../api/staff';

export const StaffQueries = { failedProofs: ['staff', 'failed-proofs'], refundsDue: ['staff', 'refunds-due'] } as const;

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
