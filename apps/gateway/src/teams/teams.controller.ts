import { Controller, Inject, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  HttpRoutes,
  Rpc,
  TeamMessages,
  type AddRepRequest,
  type ImportRepsRequest,
  type ImportRepsResult,
  type MessageResponse,
  type PageRequest,
  type Rep,
  type RepFields,
  type RequestMeta,
  type Team,
  type TeamAnalyticsQuery,
  type TeamAnalyticsReport,
} from '@digicard/contracts';
import { rangeOf } from '../analytics/analytics.controller.js';
import { teamAnalyticsCsv } from '../analytics/analytics-csv.js';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { ValidBody, ValidQuery } from '../http/route-params.js';
import { OwnerDownloads } from '../profiles/owner-downloads.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { SessionStore } from '../session/session.store.js';
import { teamReportPage, wholeTeamReport } from './current-reps.js';
import { TeamTier } from './team-tier.js';

/**
 * The Teams section's API (team leaders): the teams service checks the leader again and answers only for their own
 * reps; the leader's own session is never touched (adding a rep does not sign anyone in or out). Teams are
 * DigiPlatinum's: the role comes from the session, the tier is asked of profiles on every call (403 below it), and
 * the owning service checks both again.
 */
@Controller()
export class TeamsController {
  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(SessionStore) private readonly sessions: SessionStore,
    @Inject(OwnerDownloads) private readonly downloads: OwnerDownloads,
    @Inject(TeamTier) private readonly tier: TeamTier,
  ) {}

  @Route(HttpRoutes.listTeam)
  async list(@ValidQuery() page: PageRequest, @Meta() meta: RequestMeta): Promise<Team> {
    await this.tier.assertPlatinum(meta);
    return this.rpc.call(Rpc.listTeam, page, meta);
  }

  @Route(HttpRoutes.addRep)
  async add(@ValidBody() body: AddRepRequest, @Meta() meta: RequestMeta): Promise<Rep> {
    await this.tier.assertPlatinum(meta);
    return this.rpc.call(Rpc.addRep, body, meta);
  }

  @Route(HttpRoutes.importReps)
  async import(@ValidBody() body: ImportRepsRequest, @Meta() meta: RequestMeta): Promise<ImportRepsResult> {
    await this.tier.assertPlatinum(meta);
    return this.rpc.call(Rpc.importReps, body, meta);
  }

  @Route(HttpRoutes.updateRep)
  async update(@Param('accountId') accountId: string, @ValidBody() body: RepFields, @Meta() meta: RequestMeta): Promise<Rep> {
    await this.tier.assertPlatinum(meta);
    return this.rpc.call(Rpc.updateRep, { ...body, accountId }, meta);
  }

  /** The removed rep is signed out everywhere at once (identity already refuses their next sign-in). */
  @Route(HttpRoutes.removeRep)
  async remove(@Param('accountId') accountId: string, @Meta() meta: RequestMeta): Promise<MessageResponse> {
    await this.tier.assertPlatinum(meta);
    await this.rpc.call(Rpc.removeRep, { accountId }, meta);
    await this.sessions.destroyAllFor(accountId);
    return { message: TeamMessages.repDeleted };
  }

  @Route(HttpRoutes.exportTeamLeads)
  async leads(@Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    await this.tier.assertPlatinum(meta);
    return this.downloads.teamLeads(meta, res);
  }

  /** The leader view: views, Save to Contact and leads per rep, over the Analytics tab's periods, a page of reps at a time. */
  @Route(HttpRoutes.getTeamAnalytics)
  async analytics(@ValidQuery() query: TeamAnalyticsQuery, @Meta() meta: RequestMeta): Promise<TeamAnalyticsReport> {
    const { cursor, limit, ...days } = query;
    const range = rangeOf(days);
    await this.tier.assertPlatinum(meta);
    return teamReportPage(this.rpc, range, { ...(cursor ? { cursor } : {}), limit }, meta);
  }

  @Route(HttpRoutes.exportTeamAnalytics)
  async analyticsCsv(@Query() query: Record<string, unknown>, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    const range = rangeOf(query);
    await this.tier.assertPlatinum(meta);
    const report = await wholeTeamReport(this.rpc, range, meta);
    res
      .status(200)
      .type('text/csv; charset=utf-8')
      .set('Content-Disposition', `attachment; filename="team-analytics-${report.from}-${report.to}.csv"`)
      .set('Cache-Control', 'no-store')
      .send(teamAnalyticsCsv(report));
  }
}
