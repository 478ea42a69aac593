import { Controller, Inject, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { HttpRoutes, LeadThanks, Rpc, type LeadSubmission, type RequestMeta } from '@digicard/contracts';
import { PageAnalytics } from '../analytics/page-analytics.js';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { ValidBody } from '../http/route-params.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { VisitorDownloads } from './visitor-downloads.js';

/** What visitors of a profile use through the API: its forms, its contact card and its QR code. */
@Controller()
export class PublicProfileController {
  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(VisitorDownloads) private readonly downloads: VisitorDownloads,
    @Inject(PageAnalytics) private readonly analytics: PageAnalytics,
  ) {}

  @Route(HttpRoutes.submitLead)
  submitLead(
    @Param('username') username: string,
    @ValidBody() submission: LeadSubmission,
    @Meta() meta: RequestMeta,
  ): Promise<{ message: string }> {
    return this.rpc.call(Rpc.submitLead, { username, submission }, meta).then(() => ({ message: LeadThanks[submission.kind] }));
  }

  @Route(HttpRoutes.getVcard)
  vcard(@Param('username') username: string, @Meta() meta: RequestMeta, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.downloads.vcard(username, meta, res).then(() => this.analytics.countSave(req, username));
  }

  @Route(HttpRoutes.getQrPng)
  qrPng(@Param('username') username: string, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    return this.downloads.qrPng(username, meta, res);
  }

  @Route(HttpRoutes.getQrSvg)
  qrSvg(@Param('username') username: string, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    return this.downloads.qrSvg(username, meta, res);
  }
}
