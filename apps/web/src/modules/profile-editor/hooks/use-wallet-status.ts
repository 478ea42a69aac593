import type { WalletStatus } from '@digicard/contracts';
import { useOwnerData } from '../../api/use-owner-data';
import { fetchWalletStatus } from '../api/profile';

export const WALLET_STATUS_FAILED_MESSAGE = 'We could not check which wallets your card can go into.';

/** Which wallets the card can be added to (GET /api/wallet), read when the QR Code section opens. */
export const useWalletStatus = () => useOwnerData<WalletStatus>(['wallet-status'], fetchWalletStatus, WALLET_STATUS_FAILED_MESSAGE);
