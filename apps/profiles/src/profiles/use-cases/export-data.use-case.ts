import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '@digicard/db';
import { DATABASE } from '@digicard/server';
import { AnalyticsRepository } from '../../analytics/analytics.repository.js';
import { toLead, toOwn } from '../profile.mapping.js';
import { ProfileWriter } from '../profile-writer.js';
import { ApplePassesRepository } from '../../wallet/apple-passes.repository.js';
import { ProfilesRepository } from '../profiles.repository.js';

/** Everything this service holds about the owner (POPIA: the right of access). */
@Injectable()
export class ExportData {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(ProfileWriter) private readonly writer: ProfileWriter,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(AnalyticsRepository) private readonly analytics: AnalyticsRepository,
    @Inject(ApplePassesRepository) private readonly applePasses: ApplePassesRepository,
  ) {}

  async execute(accountId: string): Promise<Record<string, unknown>> {
    const row = await this.writer.own(accountId);
    return {
      profile: toOwn(row),
      createdAt: row.createdAt.toISOString(),
      leads: (await this.profiles.leadsOf(this.db, accountId)).map((lead) => ({
        ...toLead(lead),
        consentText: lead.consentText,
        consentAt: lead.consentAt?.toISOString() ?? null,
      })),
      images: await this.profiles.mediaOf(this.db, accountId),
      views: await this.profiles.viewCounts(this.db, accountId),
      analytics: await this.analytics.totalsOf(this.db, accountId),
      // Apple Wallet: each pass's serial and how many devices hold it (never its token or the devices' push tokens).
      applePasses: await this.applePasses.exportOf(this.db, accountId),
    };
  }
}
