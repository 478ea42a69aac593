import { Controller, Inject } from '@nestjs/common';
import { Rpc } from '@digicard/contracts';
import { Handles, type RpcBody, type SignedInMeta } from '@digicard/server';
import { ApplePassQueries } from './apple-pass-queries.js';
import { IssueApplePass } from './use-cases/issue-apple-pass.use-case.js';
import { IssueGoogleWalletLink } from './use-cases/issue-google-wallet-link.use-case.js';
import { OfferRepPasses } from './use-cases/offer-rep-passes.use-case.js';
import { RegisterAppleDevice } from './use-cases/register-apple-device.use-case.js';

/**
 * Wallet passes' subjects: the owner's (signed in), a leader's for their reps, and Apple's web service (a device, with
 * the pass's own token).
 */
@Controller()
export class WalletController {
  constructor(
    @Inject(ApplePassQueries) private readonly queries: ApplePassQueries,
    @Inject(IssueApplePass) private readonly issue: IssueApplePass,
    @Inject(RegisterAppleDevice) private readonly devices: RegisterAppleDevice,
    @Inject(IssueGoogleWalletLink) private readonly google: IssueGoogleWalletLink,
    @Inject(OfferRepPasses) private readonly offer: OfferRepPasses,
  ) {}

  @Handles(Rpc.getWalletStatus)
  status() {
    return Promise.resolve({ apple: this.queries.status(), google: this.google.status() });
  }

  @Handles(Rpc.issueGoogleWalletLink)
  issueGoogleWalletLink(_: object, meta: SignedInMeta) {
    return this.google.execute(meta.userId);
  }

  @Handles(Rpc.offerRepPasses)
  offerRepPasses(_: object, meta: SignedInMeta) {
    return this.offer.execute(meta.userId);
  }

  @Handles(Rpc.issueApplePass)
  issueApplePass(_: object, meta: SignedInMeta) {
    return this.issue.execute(meta.userId);
  }

  @Handles(Rpc.latestApplePass)
  latest(body: RpcBody<typeof Rpc.latestApplePass>) {
    return this.queries.latest(body);
  }

  @Handles(Rpc.registerApplePassDevice)
  register(body: RpcBody<typeof Rpc.registerApplePassDevice>) {
    return this.devices.register(body);
  }

  @Handles(Rpc.unregisterApplePassDevice)
  unregister(body: RpcBody<typeof Rpc.unregisterApplePassDevice>) {
    return this.devices.unregister(body);
  }

  @Handles(Rpc.listApplePassSerials)
  changed({ deviceLibraryIdentifier, passTypeIdentifier, passesUpdatedSince }: RpcBody<typeof Rpc.listApplePassSerials>) {
    return this.queries.changedFor(deviceLibraryIdentifier, passTypeIdentifier, passesUpdatedSince);
  }
}
