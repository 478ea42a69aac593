import { Controller, Inject, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  AnalyticsRangeSchema,
  HttpRoutes,
  Rpc,
  validationError,
  type AnalyticsReport,
  type AnalyticsRange,
  type Click,
  type RequestMeta,
} from '@digicard/contracts';
import { saDaysBefore } from '@digicard/domain';
import { ApiHttpException } from '@digicard/server';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { ValidBody } from '../http/route-params.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { analyticsCsv } from './analytics-csv.js';
import { PageAnalytics } from './page-analytics.js';

/** `?from=&to=`, checked like a body: 400 with field errors. */
export function rangeOf(query: Record<string, unknown>): AnalyticsRange {
  const parsed = AnalyticsRangeSchema.safeParse({ from: query['from'] || undefined, to: query['to'] || undefined });
  if (!parsed.success) throw new ApiHttpException(validationError(parsed.error));
  return parsed.data;
}

/** The owner's analytics (report and CSV), and the public page's click beacon. */
@Controller()
export class AnalyticsController {
  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(PageAnalytics) private readonly analytics: PageAnalytics,
  ) {}

  @Route(HttpRoutes.getAnalytics)
  report(@Query() query: Record<string, unknown>, @Meta() meta: RequestMeta): Promise<AnalyticsReport> {
    return this.rpc.call(Rpc.getAnalytics, rangeOf(query), meta);
  }

  @Route(HttpRoutes.exportAnalytics)
  async csv(@Query() query: Record<string, unknown>, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    const range = rangeOf(query);
    // The CSV is the full view: asking with a range makes the service refuse (403) anyone below DigiPlatinum.
    const report = await this.rpc.call(Rpc.getAnalytics, { from: range.from ?? defaultFrom(), to: range.to }, meta);
    res
      .status(200)
      .type('text/csv; charset=utf-8')
      .set('Content-Disposition', `attachment; filename="analytics-${report.from}-${report.to}.csv"`)
      .set('Cache-Control', 'no-store')
      .send(analyticsCsv(report));
  }

  @Route(HttpRoutes.recordClick)
  click(@Param('username') username: string, @ValidBody() click: Click, @Req() req: Request): void {
    this.analytics.countClick(req, username, click.target);
  }
}

/** The last 30 days (SAST), as the report's default. */
const defaultFrom = (): string => saDaysBefore(29);
