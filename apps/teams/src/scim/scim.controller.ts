import { Controller, Inject } from '@nestjs/common';
import { Rpc, type RequestMeta } from '@digicard/contracts';
import { Handles, type RpcBody as Body, type SignedInMeta } from '@digicard/server';
import { ScimSettings } from './use-cases/scim-settings.use-case.js';
import { ScimUsers } from './use-cases/scim-users.use-case.js';

/**
 * SCIM provisioning's subjects: the leader's token and audit list (team leaders), the staff console's view (staff),
 * and the SCIM service's calls, which only the gateway publishes, each naming its team by the token's hash.
 */
@Controller()
export class ScimController {
  constructor(
    @Inject(ScimSettings) private readonly settings: ScimSettings,
    @Inject(ScimUsers) private readonly users: ScimUsers,
  ) {}

  @Handles(Rpc.getScimToken)
  token(_: Body<typeof Rpc.getScimToken>, meta: SignedInMeta) {
    return this.settings.token(meta);
  }

  @Handles(Rpc.storeScimToken)
  storeToken({ tokenHash }: Body<typeof Rpc.storeScimToken>, meta: SignedInMeta) {
    return this.settings.storeToken(tokenHash, meta);
  }

  @Handles(Rpc.revokeScimToken)
  revokeToken(_: Body<typeof Rpc.revokeScimToken>, meta: SignedInMeta) {
    return this.settings.revokeToken(meta);
  }

  @Handles(Rpc.listScimAudit)
  audit(page: Body<typeof Rpc.listScimAudit>, meta: SignedInMeta) {
    return this.settings.audit(meta, page);
  }

  @Handles(Rpc.staffTeamSignIn)
  staffState({ accountId }: Body<typeof Rpc.staffTeamSignIn>) {
    return this.settings.teamState(accountId);
  }

  @Handles(Rpc.staffTeamSignInOff)
  staffOff({ accountId, sso, scim }: Body<typeof Rpc.staffTeamSignInOff>, meta: SignedInMeta) {
    return this.settings.turnOff(accountId, { sso, scim }, meta);
  }

  @Handles(Rpc.scimCreateUser)
  create({ tokenHash, call, user }: Body<typeof Rpc.scimCreateUser>, meta: RequestMeta) {
    return this.users.create(tokenHash, call, user, meta);
  }

  @Handles(Rpc.scimGetUser)
  get({ tokenHash, call, id }: Body<typeof Rpc.scimGetUser>, meta: RequestMeta) {
    return this.users.get(tokenHash, call, id, meta);
  }

  @Handles(Rpc.scimListUsers)
  list({ tokenHash, call, ...query }: Body<typeof Rpc.scimListUsers>, meta: RequestMeta) {
    return this.users.list(tokenHash, call, query, meta);
  }

  @Handles(Rpc.scimReplaceUser)
  replace({ tokenHash, call, id, user }: Body<typeof Rpc.scimReplaceUser>, meta: RequestMeta) {
    return this.users.replace(tokenHash, call, id, user, meta);
  }

  @Handles(Rpc.scimPatchUser)
  patch({ tokenHash, call, id, operations }: Body<typeof Rpc.scimPatchUser>, meta: RequestMeta) {
    return this.users.patch(tokenHash, call, id, operations, meta);
  }

  @Handles(Rpc.scimDeleteUser)
  delete({ tokenHash, call, id }: Body<typeof Rpc.scimDeleteUser>, meta: RequestMeta) {
    return this.users.delete(tokenHash, call, id, meta);
  }

  @Handles(Rpc.scimRefused)
  refused({ tokenHash, call, status, outcome }: Body<typeof Rpc.scimRefused>, meta: RequestMeta) {
    return this.users.refused(tokenHash, call, status, outcome, meta);
  }
}
