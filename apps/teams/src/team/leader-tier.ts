import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, Rpc, TeamMessages, type Membership } from '@digicard/contracts';
import { can, FREE_TIER } from '@digicard/domain';
import { RpcCallError, ServiceError, type RpcClient, type SignedInMeta, RPC_CLIENT } from '@digicard/server';

/**
 * Teams are DigiPlatinum's (spec section 2): the role says who is a leader, the tier whether their team is open to
 * them. The role alone is not enough (a DigiPlatinum subscription that lapsed, staff who made a leader of someone
 * without it), so every subject of this service asks profiles for the leader's tier first: below DigiPlatinum, 403
 * with the upgrade message; profiles silent, 503.
 */
@Injectable()
export class LeaderTier {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  async assertPlatinum(meta: SignedInMeta): Promise<void> {
    let membership: Membership;
    try {
      // As the leader: `getOwnProfile` reads the account from meta.userId, so this names no one else.
      ({ membership } = await this.rpc.call(Rpc.getOwnProfile, {}, meta));
    } catch (error) {
      if (error instanceof RpcCallError && error.apiError?.statusCode === 404) membership = FREE_TIER;
      else if (error instanceof RpcCallError) {
        throw new ServiceError({
          statusCode: 503,
          code: ErrorCode.ServiceUnavailable,
          message: 'Your team cannot be reached right now. Please try again.',
        });
      } else throw error;
    }
    if (!can(membership, 'teams')) throw ServiceError.forbidden(TeamMessages.needsPlatinum);
  }
}
