import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Notices, Rpc } from '@digicard/contracts';
import { Handles, type RpcBody, type SignedInMeta } from '@digicard/server';
import { AnalyticsQueries } from './analytics-queries.js';

@Controller()
export class AnalyticsController {
  constructor(@Inject(AnalyticsQueries) private readonly analytics: AnalyticsQueries) {}

  @Handles(Rpc.getAnalytics)
  report(range: RpcBody<typeof Rpc.getAnalytics>, meta: SignedInMeta) {
    return this.analytics.report(meta.userId, range);
  }

  @Handles(Rpc.getTeamAnalytics)
  team(range: RpcBody<typeof Rpc.getTeamAnalytics>, meta: SignedInMeta) {
    return this.analytics.teamReport(meta.userId, range);
  }

  /** A fire-and-forget notice: a gateway replica's counts of the last second. A bad one is dropped. */
  @EventPattern(Notices.analyticsRecorded.subject)
  async recorded(@Payload() payload: unknown): Promise<void> {
    const batch = Notices.analyticsRecorded.data.safeParse(payload);
    if (batch.success) await this.analytics.record(batch.data);
  }
}
