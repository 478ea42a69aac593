import { migrationsFolderOf } from '@digicard/db';
import type { ServiceDefinition } from '@digicard/server';
import { ConfigSchema, type Config } from './config.js';
import { outbox, processedMessages } from './db/schema.js';
import { ProfilesModule } from './profiles/profiles.module.js';
import { StaffModule } from './staff/staff.module.js';
import { appleWalletOf } from './wallet/apple-config.js';
import { startApplePassPushWorker } from './wallet/workers/apple-pass-push.worker.js';
import { WalletPassSweeper } from './wallet/workers/wallet-pass-sweeper.js';
import { ApplePassRegistrationsRepository } from './wallet/apple-pass-registrations.repository.js';
import { ApplePassesRepository } from './wallet/apple-passes.repository.js';
import { ApplePassMaker } from './wallet/apple-pass-maker.js';
import { googleWalletOf } from './wallet/google-config.js';
import { GoogleWalletObjectsRepository } from './wallet/google-wallet-objects.repository.js';
import { startGoogleWalletSyncWorker } from './wallet/workers/google-wallet-sync.worker.js';
import { WalletModule } from './wallet/wallet.module.js';

/**
 * The profiles service, as its process and its in-process tests start it; with Apple Wallet configured, also the
 * `apple-pass-push` worker, with Google Wallet the `google-wallet-sync` worker, and with either the passes' sweeper.
 */
export const profilesService: ServiceDefinition<Config> = {
  service: 'profiles',
  configSchema: ConfigSchema,
  migrationsFolder: migrationsFolderOf(import.meta.url),
  outbox,
  processedMessages,
  imports: (ctx) => [WalletModule.register(ctx), ProfilesModule, StaffModule],
  afterStart: (app, ctx) => {
    const wallet = appleWalletOf(ctx.config);
    if (wallet) startApplePassPushWorker(ctx, wallet, app.get(ApplePassesRepository), app.get(ApplePassRegistrationsRepository));
    const google = googleWalletOf(ctx.config);
    if (google) {
      const maker = app.get(ApplePassMaker);
      startGoogleWalletSyncWorker(ctx, google, app.get(GoogleWalletObjectsRepository), (accountId) =>
        maker.contentOf(ctx.db, google, accountId),
      );
    }
    if (wallet || google) {
      const sweeper = app.get(WalletPassSweeper);
      sweeper.start();
      ctx.onShutdown(() => sweeper.stop());
    }
    return Promise.resolve();
  },
};
