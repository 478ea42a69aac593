import { Inject, Injectable } from '@nestjs/common';
import type { ExportChunk, PageRequest } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, exportChunk, toPage } from '@digicard/server';
import { AnalyticsRepository } from '../../analytics/analytics.repository.js';
import { toLead, toOwn } from '../profile.mapping.js';
import { ProfileWriter } from '../profile-writer.js';
import { ApplePassesRepository } from '../../wallet/apple-passes.repository.js';
import { GoogleWalletObjectsRepository } from '../../wallet/google-wallet-objects.repository.js';
import { ProfilesRepository } from '../profiles.repository.js';
import { LeadsRepository } from '../leads.repository.js';
import { MediaRepository } from '../media.repository.js';

/**
 * Everything this service holds about the owner (POPIA: the right of access), in chunks: the profile, its images and
 * views first, then the leads (newest first: an owner may hold thousands) and the analytics totals (by metric and
 * key: new keys come every day), each a page at a time.
 */
@Injectable()
export class ExportData {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(ProfileWriter) private readonly writer: ProfileWriter,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(LeadsRepository) private readonly leads: LeadsRepository,
    @Inject(MediaRepository) private readonly media: MediaRepository,
    @Inject(AnalyticsRepository) private readonly analytics: AnalyticsRepository,
    @Inject(ApplePassesRepository) private readonly applePasses: ApplePassesRepository,
    @Inject(GoogleWalletObjectsRepository) private readonly googleObjects: GoogleWalletObjectsRepository,
  ) {}

  async execute(accountId: string, request: PageRequest): Promise<ExportChunk> {
    // The profile must exist (404 otherwise) whichever chunk is asked for.
    const row = await this.writer.own(accountId);
    return exportChunk(
      request,
      async () => ({
        profile: toOwn(row),
        createdAt: row.createdAt.toISOString(),
        images: await this.media.mediaOf(this.db, accountId),
        views: await this.analytics.viewCounts(this.db, accountId),
        // Apple Wallet: each pass's serial and how many devices hold it (never its token or the devices' push tokens).
        applePasses: await this.applePasses.exportOf(this.db, accountId),
        // Google Wallet: each pass object's own id part (Google knows it as `<issuer id>.<suffix>`).
        googleWalletObjects: await this.googleObjects.exportOf(this.db, accountId),
      }),
      [
        {
          name: 'leads',
          read: async (start, limit, part) =>
            toPage(
              await this.leads.leadsPage(this.db, accountId, start, limit),
              limit,
              (rows) =>
                rows.map((lead) => ({
                  ...toLead(lead),
                  consentText: lead.consentText,
                  consentAt: lead.consentAt?.toISOString() ?? null,
                })),
              part,
            ),
        },
        {
          name: 'analytics',
          orderedBy: 'text',
          read: async (start, limit, part) =>
            toPage(
              await this.analytics.totalsPage(this.db, accountId, start, limit),
              limit,
              (rows) => rows,
              part,
              (row) => ({ id: row.metric, key: row.key }),
            ),
        },
      ],
    );
  }
}
