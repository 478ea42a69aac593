import { Inject, Injectable } from '@nestjs/common';
import { WalletMessages } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, ServiceError } from '@digicard/server';
import type { AppleWallet } from '../apple-config.js';
import { checkPass, requireWallet } from '../apple-pass-auth.js';
import { APPLE_WALLET } from '../apple-pass-maker.js';
import { ApplePassesRepository } from '../apple-passes.repository.js';
import { ApplePassRegistrationsRepository } from '../apple-pass-registrations.repository.js';

interface PassRef {
  passTypeIdentifier: string;
  serialNumber: string;
  authenticationToken: string;
  deviceLibraryIdentifier: string;
}

/**
 * Apple's device registrations: a device holding the pass (its token shown) asks for pushes when the pass changes,
 * with the token APNs reaches it by, and stops asking when the pass leaves it. A voided pass takes no new devices.
 */
@Injectable()
export class RegisterAppleDevice {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APPLE_WALLET) private readonly wallet: AppleWallet | null,
    @Inject(ApplePassesRepository) private readonly passes: ApplePassesRepository,
    @Inject(ApplePassRegistrationsRepository) private readonly registrations: ApplePassRegistrationsRepository,
  ) {}

  async register(ref: PassRef & { pushToken: string }): Promise<{ created: boolean }> {
    const wallet = requireWallet(this.wallet);
    return this.db.transaction(async (tx) => {
      const pass = checkPass(
        wallet,
        ref.passTypeIdentifier,
        await this.passes.bySerial(tx, ref.passTypeIdentifier, ref.serialNumber),
        ref.authenticationToken,
      );
      if (pass.voidedAt) throw ServiceError.notFound(WalletMessages.noPass);
      const created = await this.registrations.register(tx, {
        deviceLibraryIdentifier: ref.deviceLibraryIdentifier,
        serialNumber: pass.serialNumber,
        pushToken: ref.pushToken.toLowerCase(),
      });
      return { created };
    });
  }

  async unregister(ref: PassRef): Promise<{ removed: boolean }> {
    const wallet = requireWallet(this.wallet);
    const pass = checkPass(
      wallet,
      ref.passTypeIdentifier,
      await this.passes.bySerial(this.db, ref.passTypeIdentifier, ref.serialNumber),
      ref.authenticationToken,
    );
    return { removed: await this.registrations.unregister(this.db, ref.deviceLibraryIdentifier, pass.serialNumber) };
  }
}
