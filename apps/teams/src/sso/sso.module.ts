import { Module, type DynamicModule } from '@nestjs/common';
import { LeaderTier } from '../team/leader-tier.js';
import { MembersRepository } from '../team/members.repository.js';
import { SsoController } from './sso.controller.js';
import { SsoQueries } from './sso-queries.js';
import { SsoRepository } from './sso.repository.js';
import { RemoveSsoSettings } from './use-cases/remove-sso-settings.use-case.js';
import { SaveSsoSettings } from './use-cases/save-sso-settings.use-case.js';

/** A team's company sign-in (single sign-on): the settings the leader keeps, and what the gateway's sign-in asks. */
@Module({})
export class SsoModule {
  static register(): DynamicModule {
    return {
      module: SsoModule,
      controllers: [SsoController],
      providers: [LeaderTier, MembersRepository, SsoRepository, SsoQueries, SaveSsoSettings, RemoveSsoSettings],
    };
  }
}
