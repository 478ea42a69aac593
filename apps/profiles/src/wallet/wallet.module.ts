import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { ServiceContext } from '@digicard/server';
import type { Config } from '../config.js';
import { MediaRepository } from '../profiles/media.repository.js';
import { ProfilesRepository } from '../profiles/profiles.repository.js';
import { appleWalletOf, appleWalletState, type AppleWallet } from './apple-config.js';
import { APPLE_PASS_PUSHES, ApplePassLifecycle } from './apple-pass-lifecycle.js';
import { APPLE_WALLET, ApplePassMaker } from './apple-pass-maker.js';
import { openApplePassPushes, type ApplePassPushes } from './apple-pass-push.producer.js';
import { ApplePassQueries } from './apple-pass-queries.js';
import { WalletPassSweeper } from './workers/wallet-pass-sweeper.js';
import { ApplePassRegistrationsRepository } from './apple-pass-registrations.repository.js';
import { ApplePassesRepository } from './apple-passes.repository.js';
import { googleWalletOf, googleWalletState, type GoogleWallet } from './google-config.js';
import { GOOGLE_WALLET, GOOGLE_WALLET_WRITES, GoogleWalletLifecycle } from './google-wallet-lifecycle.js';
import { GoogleWalletObjectsRepository } from './google-wallet-objects.repository.js';
import { openGoogleWalletWrites, type GoogleWalletWrites } from './google-wallet-sync.producer.js';
import { WalletController } from './wallet.controller.js';
import { WalletPassEvents } from './wallet-pass-events.handler.js';
import { IssueGoogleWalletLink } from './use-cases/issue-google-wallet-link.use-case.js';
import { OfferRepPasses } from './use-cases/offer-rep-passes.use-case.js';
import { IssueApplePass } from './use-cases/issue-apple-pass.use-case.js';
import { RegisterAppleDevice } from './use-cases/register-apple-device.use-case.js';

/**
 * Wallet passes (decision 11: profiles owns them). Apple Wallet is on when its settings are all there: the
 * `apple-pass-push` queue is opened then (its worker starts with the service); Google Wallet likewise, with its
 * `google-wallet-sync` queue. Health reports each feature either way (`features.appleWallet`,
 * `features.googleWallet`: on, or off and which settings are missing).
 */
@Global()
@Module({})
export class WalletModule {
  static register(ctx: ServiceContext<Config>): DynamicModule {
    const wallet: AppleWallet | null = appleWalletOf(ctx.config);
    ctx.health.feature('appleWallet', appleWalletState(ctx.config));
    const passes = new ApplePassesRepository();
    const registrations = new ApplePassRegistrationsRepository();
    const pushes: ApplePassPushes | null = wallet ? openApplePassPushes(ctx, passes, registrations) : null;
    const google: GoogleWallet | null = googleWalletOf(ctx.config);
    ctx.health.feature('googleWallet', googleWalletState(ctx.config));
    const objects = new GoogleWalletObjectsRepository();
    const writes: GoogleWalletWrites | null = google ? openGoogleWalletWrites(ctx, objects) : null;
    return {
      module: WalletModule,
      controllers: [WalletController],
      providers: [
        { provide: APPLE_WALLET, useValue: wallet },
        { provide: APPLE_PASS_PUSHES, useValue: pushes },
        { provide: ApplePassesRepository, useValue: passes },
        { provide: ApplePassRegistrationsRepository, useValue: registrations },
        { provide: GOOGLE_WALLET, useValue: google },
        { provide: GOOGLE_WALLET_WRITES, useValue: writes },
        { provide: GoogleWalletObjectsRepository, useValue: objects },
        ProfilesRepository,
        MediaRepository,
        ApplePassMaker,
        ApplePassQueries,
        IssueApplePass,
        RegisterAppleDevice,
        ApplePassLifecycle,
        WalletPassSweeper,
        GoogleWalletLifecycle,
        IssueGoogleWalletLink,
        OfferRepPasses,
        WalletPassEvents,
      ],
      exports: [WalletPassEvents, ApplePassesRepository, GoogleWalletObjectsRepository, APPLE_WALLET, GOOGLE_WALLET],
    };
  }
}
