import { Module } from '@nestjs/common';
import { AccountsRepository } from '../accounts/accounts.repository.js';
import { MembershipRoles } from './membership-roles.handler.js';
import { RevokeRole } from './use-cases/revoke-role.use-case.js';
import { SetRole } from './use-cases/set-role.use-case.js';
import { StaffAccess } from './staff-access.js';
import { StaffController } from './staff.controller.js';
import { StaffQueries } from './staff-queries.js';
import { StaffRepository } from './staff.repository.js';

@Module({
  controllers: [StaffController],
  providers: [AccountsRepository, StaffRepository, StaffAccess, StaffQueries, SetRole, RevokeRole, MembershipRoles],
})
export class StaffModule {}
