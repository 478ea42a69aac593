import { Controller, Inject } from '@nestjs/common';
import { Rpc } from '@digicard/contracts';
import { Handles, type RpcBody as Body, type SignedInMeta } from '@digicard/server';
import { StaffProfiles } from './staff-profiles.js';

/** The staff console's subjects in profiles (role staff, checked by @Handles and again against profiles' records). */
@Controller()
export class StaffController {
  constructor(@Inject(StaffProfiles) private readonly staff: StaffProfiles) {}

  @Handles(Rpc.staffGetProfile)
  view({ accountId }: Body<typeof Rpc.staffGetProfile>, meta: SignedInMeta) {
    return this.staff.view(meta.userId, accountId);
  }

  @Handles(Rpc.staffProfileAudit)
  audit(request: Body<typeof Rpc.staffProfileAudit>, meta: SignedInMeta) {
    return this.staff.audit(meta.userId, request);
  }

  @Handles(Rpc.staffSetPartner)
  partner({ accountId, isPartner }: Body<typeof Rpc.staffSetPartner>, meta: SignedInMeta) {
    return this.staff.setPartner(meta.userId, accountId, isPartner);
  }

  @Handles(Rpc.staffSetVanityPaths)
  vanityPaths({ accountId, paths }: Body<typeof Rpc.staffSetVanityPaths>, meta: SignedInMeta) {
    return this.staff.setVanityPaths(meta.userId, accountId, paths);
  }

  @Handles(Rpc.staffSetBusiness)
  business({ accountId, businessUsername }: Body<typeof Rpc.staffSetBusiness>, meta: SignedInMeta) {
    return this.staff.setBusiness(meta.userId, accountId, businessUsername);
  }
}
