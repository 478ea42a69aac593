import { Inject, Injectable } from '@nestjs/common';
import { CrmMessages, ErrorCode, hasFeature, Rpc, type Membership } from '@digicard/contracts';
import { RpcCallError, ServiceError, type RpcClient } from '@digicard/server';

/** The client this service asks profiles with. */
export const PROFILES_RPC = Symbol('PROFILES_RPC');

/**
 * The owner's tier, from profiles (which alone knows it: the paid membership, a partner's own choice, a rep's
 * business). Asked as the owner (`profiles.profile.get`, `account` access, the way orders asks for a buyer's profile),
 * so no other account can be named. No profile (deleted) is DigiShare.
 */
@Injectable()
export class ProfilesClient {
  constructor(@Inject(PROFILES_RPC) private readonly rpc: RpcClient) {}

  async membershipOf(accountId: string, requestId: string): Promise<Membership> {
    try {
      const profile = await this.rpc.call(Rpc.getOwnProfile, {}, { requestId, userId: accountId, role: null, ip: null });
      return profile.membership;
    } catch (error) {
      if (error instanceof RpcCallError && error.apiError?.statusCode === 404) return 'DigiShare';
      if (error instanceof RpcCallError) {
        throw new ServiceError({ statusCode: 503, code: ErrorCode.ServiceUnavailable, message: 'We could not reach our servers just now. Please try again in a minute.' });
      }
      throw error;
    }
  }

  /** 403 with the upgrade message below DigiGold. */
  async requireCrm(accountId: string, requestId: string): Promise<void> {
    if (!hasFeature(await this.membershipOf(accountId, requestId), 'crm')) throw ServiceError.forbidden(CrmMessages.upgrade);
  }
}
