import { Controller, Inject } from '@nestjs/common';
import {
  HttpRoutes,
  Rpc,
  SCIM_BASE_PATH,
  ScimMessages,
  type MessageResponse,
  type PageRequest,
  type RequestMeta,
  type ScimAudit,
  type ScimSettings,
  type ScimTokenIssued,
} from '@digicard/contracts';
import { CONFIG } from '@digicard/server';
import type { Config } from '../config.js';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { ValidQuery } from '../http/route-params.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { TeamTier } from '../teams/team-tier.js';
import { hashScimToken, newScimToken } from './scim-token.js';

/**
 * The leader's SCIM settings in the Teams section (DigiPlatinum): the token is made here and shown once; only its
 * SHA-256 goes to the teams service. The audit list of the team's SCIM calls.
 */
@Controller()
export class TeamScimController {
  private readonly baseUrl: string;

  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(TeamTier) private readonly tier: TeamTier,
    @Inject(CONFIG) config: Config,
  ) {
    this.baseUrl = `${config.PUBLIC_URL.replace(/\/+$/, '')}${SCIM_BASE_PATH}`;
  }

  @Route(HttpRoutes.getScimSettings)
  async settings(@Meta() meta: RequestMeta): Promise<ScimSettings> {
    await this.tier.assertPlatinum(meta);
    return { ...(await this.rpc.call(Rpc.getScimToken, {}, meta)), baseUrl: this.baseUrl };
  }

  @Route(HttpRoutes.issueScimToken)
  async issue(@Meta() meta: RequestMeta): Promise<ScimTokenIssued> {
    await this.tier.assertPlatinum(meta);
    const token = newScimToken();
    const state = await this.rpc.call(Rpc.storeScimToken, { tokenHash: hashScimToken(token) }, meta);
    return { ...state, baseUrl: this.baseUrl, token };
  }

  @Route(HttpRoutes.revokeScimToken)
  async revoke(@Meta() meta: RequestMeta): Promise<MessageResponse> {
    await this.tier.assertPlatinum(meta);
    await this.rpc.call(Rpc.revokeScimToken, {}, meta);
    return { message: ScimMessages.tokenRevoked };
  }

  @Route(HttpRoutes.listScimAudit)
  async audit(@ValidQuery() page: PageRequest, @Meta() meta: RequestMeta): Promise<ScimAudit> {
    await this.tier.assertPlatinum(meta);
    return this.rpc.call(Rpc.listScimAudit, page, meta);
  }
}
