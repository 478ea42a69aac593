import { Module, type DynamicModule } from '@nestjs/common';
import { SsoRepository } from '../sso/sso.repository.js';
import { TeamModule } from '../team/team.module.js';
import { ScimAuditPrune } from './workers/scim-audit-prune.js';
import { ScimController } from './scim.controller.js';
import { ScimRepository } from './scim.repository.js';
import { ScimSettings } from './use-cases/scim-settings.use-case.js';
import { ScimUsers } from './use-cases/scim-users.use-case.js';

/** SCIM provisioning (issue 27 item 2): a team's reps made, changed and removed by the company's identity provider. */
@Module({})
export class ScimModule {
  static register(): DynamicModule {
    return {
      module: ScimModule,
      imports: [TeamModule.register()],
      controllers: [ScimController],
      providers: [SsoRepository, ScimRepository, ScimSettings, ScimUsers, ScimAuditPrune],
    };
  }
}
