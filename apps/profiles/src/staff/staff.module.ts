import { Module } from '@nestjs/common';
import { ProfilesRepository } from '../profiles/profiles.repository.js';
import { RoleEvents } from './role-events.handler.js';
import { StaffQueries } from './staff-queries.js';
import { StaffController } from './staff.controller.js';
import { StaffRepository } from './staff.repository.js';
import { AuditedChange } from './use-cases/audited-change.js';
import { SetBusiness } from './use-cases/set-business.use-case.js';
import { SetPartner } from './use-cases/set-partner.use-case.js';
import { SetVanityPaths } from './use-cases/set-vanity-paths.use-case.js';

@Module({
  controllers: [StaffController],
  providers: [ProfilesRepository, StaffRepository, StaffQueries, AuditedChange, SetPartner, SetVanityPaths, SetBusiness, RoleEvents],
})
export class StaffModule {}
