import { Controller, Inject } from '@nestjs/common';
import { Rpc } from '@digicard/contracts';
import { Handles, type RpcBody as Body, type SignedInMeta } from '@digicard/server';
import { StaffQueries } from './staff-queries.js';
import { SetBusiness } from './use-cases/set-business.use-case.js';
import { SetPartner } from './use-cases/set-partner.use-case.js';
import { SetVanityPaths } from './use-cases/set-vanity-paths.use-case.js';

/** The staff console's subjects in profiles (role staff, checked by @Handles and again against profiles' records). */
@Controller()
export class StaffController {
  constructor(
    @Inject(StaffQueries) private readonly queries: StaffQueries,
    @Inject(SetPartner) private readonly setPartner: SetPartner,
    @Inject(SetVanityPaths) private readonly setVanityPaths: SetVanityPaths,
    @Inject(SetBusiness) private readonly setBusiness: SetBusiness,
  ) {}

  @Handles(Rpc.staffGetProfile)
  view({ accountId }: Body<typeof Rpc.staffGetProfile>, meta: SignedInMeta) {
    return this.queries.view(meta.userId, accountId);
  }

  @Handles(Rpc.staffProfileAudit)
  audit(request: Body<typeof Rpc.staffProfileAudit>, meta: SignedInMeta) {
    return this.queries.audit(meta.userId, request);
  }

  @Handles(Rpc.staffSetPartner)
  partner({ accountId, isPartner }: Body<typeof Rpc.staffSetPartner>, meta: SignedInMeta) {
    return this.setPartner.execute(meta.userId, accountId, isPartner);
  }

  @Handles(Rpc.staffSetVanityPaths)
  vanityPaths({ accountId, paths }: Body<typeof Rpc.staffSetVanityPaths>, meta: SignedInMeta) {
    return this.setVanityPaths.execute(meta.userId, accountId, paths);
  }

  @Handles(Rpc.staffSetBusiness)
  business({ accountId, businessUsername }: Body<typeof Rpc.staffSetBusiness>, meta: SignedInMeta) {
    return this.setBusiness.execute(meta.userId, accountId, businessUsername);
  }
}
