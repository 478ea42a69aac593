import { createHash, timingSafeEqual } from 'node:crypto';
import { ErrorCode, WalletMessages } from '@digicard/contracts';
import { ServiceError } from '@digicard/server';
import type { AppleWallet } from './apple-config.js';
import type { ApplePassRow } from './apple-passes.repository.js';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Whether `given` is the pass's token: compared in constant time (digests of equal length, whatever was sent). */
export const isPassToken = (pass: Pick<ApplePassRow, 'authenticationToken'>, given: string): boolean =>
  timingSafeEqual(digest(pass.authenticationToken), digest(given));

export const passUnauthorized = (): ServiceError =>
  new ServiceError({ statusCode: 401, code: ErrorCode.Unauthorized, message: WalletMessages.passUnauthorized });

/** Apple Wallet is configured, or the web service answers 404 as if there were no such pass. */
export function requireWallet(wallet: AppleWallet | null): AppleWallet {
  if (!wallet) throw ServiceError.notFound(WalletMessages.appleNotConfigured);
  return wallet;
}

/**
 * The pass a device names, when it shows that pass's own token: an unknown serial and a wrong token are the same
 * 401 (a serial of another account's pass tells the caller nothing); another pass type than ours is 404.
 */
export function checkPass(wallet: AppleWallet, passTypeIdentifier: string, pass: ApplePassRow | null, token: string): ApplePassRow {
  if (passTypeIdentifier !== wallet.passTypeIdentifier) throw ServiceError.notFound(WalletMessages.noPass);
  // A token is compared even without a pass, so the time taken does not say whether the serial exists.
  const ok = isPassToken(pass ?? { authenticationToken: '' }, token);
  if (!pass || !ok) throw passUnauthorized();
  return pass;
}
