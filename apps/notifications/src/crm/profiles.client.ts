import { Inject, Injectable } from '@nestjs/common';
import { CrmMessages, ErrorCode, Rpc, type Membership } from '@digicard/contracts';
import { can, FREE_TIER } from '@digicard/domain';
import { RpcCallError, ServiceError, type RpcClient, RPC_CLIENT } from '@digicard/server';

/**
 * The owner's tier, from profiles (which alone knows it: the paid membership, a partner's own choice, a rep's
 * business), through its service-only query (`profiles.profile.get-for-account`: only services' NATS users may ask it).
 * No profile (deleted) is DigiShare.
 */
@Injectable()
export class ProfilesClient {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  async membershipOf(accountId: string, requestId: string): Promise<Membership> {
    try {
      const profile = await this.rpc.call(Rpc.profileOfAccount, { accountId }, { requestId, userId: null, role: null, ip: null });
      return profile.membership;
    } catch (error) {
      if (error instanceof RpcCallError && error.apiError?.statusCode === 404) return FREE_TIER;
      if (error instanceof RpcCallError) {
        throw new ServiceError({
          statusCode: 503,
          code: ErrorCode.ServiceUnavailable,
          message: 'We could not reach our servers just now. Please try again in a minute.',
        });
      }
      throw error;
    }
  }

  /** 403 with the upgrade message below DigiGold. */
  async requireCrm(accountId: string, requestId: string): Promise<void> {
    if (!can(await this.membershipOf(accountId, requestId), 'crm')) throw ServiceError.forbidden(CrmMessages.upgrade);
  }
}
