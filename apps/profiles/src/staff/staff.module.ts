import { Module } from '@nestjs/common';
import { ProfilesRepository } from '../profiles/profiles.repository.js';
import { RoleEvents } from './role-events.handler.js';
import { StaffProfiles } from './staff-profiles.js';
import { StaffController } from './staff.controller.js';
import { StaffRepository } from './staff.repository.js';

@Module({
  controllers: [StaffController],
  providers: [ProfilesRepository, StaffRepository, StaffProfiles, RoleEvents],
})
export class StaffModule {}
