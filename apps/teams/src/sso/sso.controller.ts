import { Controller, Inject } from '@nestjs/common';
import { Rpc, type RequestMeta } from '@digicard/contracts';
import { Handles, type RpcBody as Body, type SignedInMeta } from '@digicard/server';
import { SsoQueries } from './sso-queries.js';
import { RemoveSsoSettings } from './use-cases/remove-sso-settings.use-case.js';
import { SaveSsoSettings } from './use-cases/save-sso-settings.use-case.js';

/** Company sign-in's subjects: the leader's settings (team leaders), and what the gateway's sign-in asks. */
@Controller()
export class SsoController {
  constructor(
    @Inject(SsoQueries) private readonly queries: SsoQueries,
    @Inject(SaveSsoSettings) private readonly saveSettings: SaveSsoSettings,
    @Inject(RemoveSsoSettings) private readonly removeSettings: RemoveSsoSettings,
  ) {}

  @Handles(Rpc.getSsoSettings)
  get(_: Body<typeof Rpc.getSsoSettings>, meta: SignedInMeta) {
    return this.queries.settings(meta);
  }

  @Handles(Rpc.saveSsoSettings)
  save(settings: Body<typeof Rpc.saveSsoSettings>, meta: SignedInMeta) {
    return this.saveSettings.execute(settings, meta);
  }

  @Handles(Rpc.removeSsoSettings)
  remove(_: Body<typeof Rpc.removeSsoSettings>, meta: SignedInMeta) {
    return this.removeSettings.execute(meta);
  }

  @Handles(Rpc.findSsoProvider)
  provider(query: Body<typeof Rpc.findSsoProvider>, _meta: RequestMeta) {
    return this.queries.provider(query);
  }

  @Handles(Rpc.ssoAccountState)
  accountState({ accountId }: Body<typeof Rpc.ssoAccountState>, _meta: RequestMeta) {
    return this.queries.accountState(accountId);
  }
}
