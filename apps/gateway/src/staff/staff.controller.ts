import { Controller, Inject, Param } from '@nestjs/common';
import { z } from 'zod';
import {
  HttpRoutes,
  SetBusinessSchema,
  SetPartnerSchema,
  SetRoleSchema,
  SetVanityPathsSchema,
  type RequestMeta,
  type StaffAccountDetail,
  type StaffSearch,
  type StaffSearchResult,
} from '@digicard/contracts';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { ValidBody } from '../http/route-params.js';
import { StaffConsole } from './staff-console.js';

/** The staff console's API (role staff: 401 signed out, 403 for every other role, in the gateway and in each service). */
@Controller()
export class StaffController {
  constructor(@Inject(StaffConsole) private readonly staff: StaffConsole) {}

  @Route(HttpRoutes.staffSearchAccounts)
  search(@ValidBody() { query }: StaffSearch, @Meta() meta: RequestMeta): Promise<StaffSearchResult> {
    return this.staff.search(query, meta);
  }

  @Route(HttpRoutes.staffGetAccount)
  get(@Param('accountId') accountId: string, @Meta() meta: RequestMeta): Promise<StaffAccountDetail> {
    return this.staff.detail(accountId, meta);
  }

  @Route(HttpRoutes.staffSetRole)
  role(@Param('accountId') accountId: string, @ValidBody() { role }: z.infer<typeof SetRoleSchema>, @Meta() meta: RequestMeta): Promise<StaffAccountDetail> {
    return this.staff.setRole(accountId, role, meta);
  }

  @Route(HttpRoutes.staffSetPartner)
  partner(@Param('accountId') accountId: string, @ValidBody() { isPartner }: z.infer<typeof SetPartnerSchema>, @Meta() meta: RequestMeta): Promise<StaffAccountDetail> {
    return this.staff.setPartner(accountId, isPartner, meta);
  }

  @Route(HttpRoutes.staffSetVanityPaths)
  vanityPaths(@Param('accountId') accountId: string, @ValidBody() { paths }: z.infer<typeof SetVanityPathsSchema>, @Meta() meta: RequestMeta): Promise<StaffAccountDetail> {
    return this.staff.setVanityPaths(accountId, paths, meta);
  }

  @Route(HttpRoutes.staffSetBusiness)
  business(
    @Param('accountId') accountId: string,
    @ValidBody() { businessUsername }: z.infer<typeof SetBusinessSchema>,
    @Meta() meta: RequestMeta,
  ): Promise<StaffAccountDetail> {
    return this.staff.setBusiness(accountId, businessUsername, meta);
  }
}
