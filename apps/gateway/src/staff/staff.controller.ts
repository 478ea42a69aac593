import { Controller, Inject, Param } from '@nestjs/common';
import { z } from 'zod';
import {
  HttpRoutes,
  SetBusinessSchema,
  SetPartnerSchema,
  RevokeRoleSchema,
  SetRoleSchema,
  SetVanityPathsSchema,
  Rpc,
  type PageRequest,
  type PrintOrder,
  type PrintQueue,
  type RequestMeta,
  type StaffAccountDetail,
  type StaffAuditPage,
  type StaffRefunds,
  type StaffSearch,
  type StaffSearchResult,
  type TeamSignInOff,
  type TeamSignInState,
} from '@digicard/contracts';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { ValidBody, ValidQuery } from '../http/route-params.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { StaffConsole } from './staff-console.js';

/** The staff console's API (role staff: 401 signed out, 403 for every other role, in the gateway and in each service). */
@Controller()
export class StaffController {
  constructor(
    @Inject(StaffConsole) private readonly staff: StaffConsole,
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
  ) {}

  @Route(HttpRoutes.staffSearchAccounts)
  search(@ValidBody() { query }: StaffSearch, @ValidQuery() page: PageRequest, @Meta() meta: RequestMeta): Promise<StaffSearchResult> {
    return this.staff.search(query, page, meta);
  }

  @Route(HttpRoutes.staffGetAccount)
  get(@Param('accountId') accountId: string, @Meta() meta: RequestMeta): Promise<StaffAccountDetail> {
    return this.staff.detail(accountId, meta);
  }

  @Route(HttpRoutes.staffAccountAudit)
  audit(@Param('accountId') accountId: string, @ValidQuery() page: PageRequest, @Meta() meta: RequestMeta): Promise<StaffAuditPage> {
    return this.staff.audit(accountId, page, meta);
  }

  /** A team's company sign-in and SCIM (the teams service checks the staff role again). */
  @Route(HttpRoutes.staffTeamSignIn)
  teamSignIn(@Param('accountId') accountId: string, @Meta() meta: RequestMeta): Promise<TeamSignInState> {
    return this.rpc.call(Rpc.staffTeamSignIn, { accountId }, meta);
  }

  @Route(HttpRoutes.staffTeamSignInOff)
  teamSignInOff(
    @Param('accountId') accountId: string,
    @ValidBody() off: TeamSignInOff,
    @Meta() meta: RequestMeta,
  ): Promise<TeamSignInState> {
    return this.rpc.call(Rpc.staffTeamSignInOff, { accountId, ...off }, meta);
  }

  @Route(HttpRoutes.staffRevokeRole)
  revokeRole(
    @Param('accountId') accountId: string,
    @ValidBody() { role }: z.infer<typeof RevokeRoleSchema>,
    @Meta() meta: RequestMeta,
  ): Promise<StaffAccountDetail> {
    return this.staff.revokeRole(accountId, role, meta);
  }

  @Route(HttpRoutes.staffSetRole)
  role(
    @Param('accountId') accountId: string,
    @ValidBody() { role }: z.infer<typeof SetRoleSchema>,
    @Meta() meta: RequestMeta,
  ): Promise<StaffAccountDetail> {
    return this.staff.setRole(accountId, role, meta);
  }

  @Route(HttpRoutes.staffSetPartner)
  partner(
    @Param('accountId') accountId: string,
    @ValidBody() { isPartner }: z.infer<typeof SetPartnerSchema>,
    @Meta() meta: RequestMeta,
  ): Promise<StaffAccountDetail> {
    return this.staff.setPartner(accountId, isPartner, meta);
  }

  @Route(HttpRoutes.staffSetVanityPaths)
  vanityPaths(
    @Param('accountId') accountId: string,
    @ValidBody() { paths }: z.infer<typeof SetVanityPathsSchema>,
    @Meta() meta: RequestMeta,
  ): Promise<StaffAccountDetail> {
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

  /** Orders whose proof render failed: a read view for support (orders checks the role again). */
  @Route(HttpRoutes.staffFailedProofs)
  failedProofs(@ValidQuery() page: PageRequest, @Meta() meta: RequestMeta): Promise<PrintQueue> {
    return this.rpc.call(Rpc.staffFailedProofs, page, meta);
  }

  /** Payments to pay back by hand: a read view for support (payments checks the role again). */
  @Route(HttpRoutes.staffRefundsDue)
  refundsDue(@ValidQuery() page: PageRequest, @Meta() meta: RequestMeta): Promise<StaffRefunds> {
    return this.rpc.call(Rpc.staffRefundsDue, page, meta);
  }

  @Route(HttpRoutes.staffRerenderProof)
  rerenderProof(@Param('orderId') orderId: string, @Meta() meta: RequestMeta): Promise<PrintOrder> {
    return this.rpc.call(Rpc.staffRerenderProof, { orderId }, meta);
  }
}
