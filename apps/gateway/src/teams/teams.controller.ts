import { Controller, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  HttpRoutes,
  Rpc,
  TeamMessages,
  type AddRepRequest,
  type ImportRepsRequest,
  type ImportRepsResult,
  type MessageResponse,
  type Rep,
  type RepFields,
  type RequestMeta,
  type Team,
} from '@digicard/contracts';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { ValidBody } from '../http/route-params.js';
import { OwnerDownloads } from '../profiles/owner-downloads.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { SessionStore } from '../session/session.store.js';

/**
 * The Teams section's API (team leaders): the teams service checks the leader again and answers only for their own
 * reps; the leader's own session is never touched (adding a rep does not sign anyone in or out).
 */
@Controller()
export class TeamsController {
  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(SessionStore) private readonly sessions: SessionStore,
    @Inject(OwnerDownloads) private readonly downloads: OwnerDownloads,
  ) {}

  @Route(HttpRoutes.listTeam)
  list(@Meta() meta: RequestMeta): Promise<Team> {
    return this.rpc.call(Rpc.listTeam, {}, meta);
  }

  @Route(HttpRoutes.addRep)
  add(@ValidBody() body: AddRepRequest, @Meta() meta: RequestMeta): Promise<Rep> {
    return this.rpc.call(Rpc.addRep, body, meta);
  }

  @Route(HttpRoutes.importReps)
  import(@ValidBody() body: ImportRepsRequest, @Meta() meta: RequestMeta): Promise<ImportRepsResult> {
    return this.rpc.call(Rpc.importReps, body, meta);
  }

  @Route(HttpRoutes.updateRep)
  update(@Param('accountId') accountId: string, @ValidBody() body: RepFields, @Meta() meta: RequestMeta): Promise<Rep> {
    return this.rpc.call(Rpc.updateRep, { ...body, accountId }, meta);
  }

  /** The removed rep is signed out everywhere at once (identity already refuses their next sign-in). */
  @Route(HttpRoutes.removeRep)
  async remove(@Param('accountId') accountId: string, @Meta() meta: RequestMeta): Promise<MessageResponse> {
    await this.rpc.call(Rpc.removeRep, { accountId }, meta);
    await this.sessions.destroyAllFor(accountId);
    return { message: TeamMessages.repDeleted };
  }

  @Route(HttpRoutes.exportTeamLeads)
  leads(@Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    return this.downloads.teamLeads(meta, res);
  }
}
