import { Controller, Inject } from '@nestjs/common';
import { Rpc } from '@digicard/contracts';
import { Handles, type RpcBody as Body, type SignedInMeta } from '@digicard/server';
import { RevokeRole } from './use-cases/revoke-role.use-case.js';
import { SetRole } from './use-cases/set-role.use-case.js';
import { StaffQueries } from './staff-queries.js';

/** The staff console's subjects in identity (role staff, checked by @Handles and again against the account). */
@Controller()
export class StaffController {
  constructor(
    @Inject(StaffQueries) private readonly queries: StaffQueries,
    @Inject(SetRole) private readonly setRole: SetRole,
    @Inject(RevokeRole) private readonly revokeRole: RevokeRole,
  ) {}

  @Handles(Rpc.staffFindAccounts)
  find(search: Body<typeof Rpc.staffFindAccounts>, meta: SignedInMeta) {
    return this.queries.find(meta.userId, search);
  }

  @Handles(Rpc.staffGetAccount)
  inspect({ accountId }: Body<typeof Rpc.staffGetAccount>, meta: SignedInMeta) {
    return this.queries.inspect(meta.userId, accountId);
  }

  @Handles(Rpc.staffAccountAudit)
  audit(request: Body<typeof Rpc.staffAccountAudit>, meta: SignedInMeta) {
    return this.queries.audit(meta.userId, request);
  }

  @Handles(Rpc.staffSetRole)
  role({ accountId, role }: Body<typeof Rpc.staffSetRole>, meta: SignedInMeta) {
    return this.setRole.execute(meta.userId, accountId, role);
  }

  @Handles(Rpc.staffRevokeRole)
  revoke({ accountId, role }: Body<typeof Rpc.staffRevokeRole>, meta: SignedInMeta) {
    return this.revokeRole.execute(meta.userId, accountId, role);
  }
}
