import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, Rpc, TeamMessages, type RequestMeta } from '@digicard/contracts';
import { can } from '@digicard/domain';
import { ApiHttpException } from '@digicard/server';
import { GatewayRpc } from '../rpc/rpc.client.js';

/**
 * Teams are DigiPlatinum's: the session says who is a team leader, profiles what tier they have now (a subscription
 * that lapsed, or staff who made a leader of someone without it). 403 with the upgrade message below DigiPlatinum;
 * 503 while profiles does not answer. The teams and profiles services check the same again.
 */
@Injectable()
export class TeamTier {
  constructor(@Inject(GatewayRpc) private readonly rpc: GatewayRpc) {}

  async assertPlatinum(meta: RequestMeta): Promise<void> {
    const { membership } = await this.rpc.call(Rpc.getOwnProfile, {}, meta);
    if (!can(membership, 'teams'))
      throw new ApiHttpException({ statusCode: 403, code: ErrorCode.Forbidden, message: TeamMessages.needsPlatinum });
  }
}
