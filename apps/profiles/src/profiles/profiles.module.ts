import { Module } from '@nestjs/common';
import { AnalyticsQueries } from '../analytics/analytics-queries.js';
import { AnalyticsController } from '../analytics/analytics.controller.js';
import { AnalyticsRepository } from '../analytics/analytics.repository.js';
import { CardEvents } from '../analytics/card-events.handler.js';
import { AccountEvents } from './account-events.handler.js';
import { MediaKeeper } from './media-keeper.js';
import { MembershipEvents } from './membership-events.handler.js';
import { ProfileQueries } from './profile-queries.js';
import { ProfileWriter } from './profile-writer.js';
import { ProfilesController } from './profiles.controller.js';
import { AccountFactsRepository } from './account-facts.repository.js';
import { LeadsRepository } from './leads.repository.js';
import { MediaRepository } from './media.repository.js';
import { ProfilesRepository } from './profiles.repository.js';
import { ChangeSettings } from './use-cases/change-settings.use-case.js';
import { ExportData } from './use-cases/export-data.use-case.js';
import { SaveProfile } from './use-cases/save-profile.use-case.js';
import { StoreImage } from './use-cases/store-image.use-case.js';
import { SubmitLead } from './use-cases/submit-lead.use-case.js';
import { TeamEvents } from './team-events.handler.js';

@Module({
  controllers: [ProfilesController, AnalyticsController],
  providers: [
    ProfilesRepository,
    AccountFactsRepository,
    LeadsRepository,
    MediaRepository,
    ProfileWriter,
    MediaKeeper,
    ProfileQueries,
    SaveProfile,
    ChangeSettings,
    StoreImage,
    SubmitLead,
    ExportData,
    AccountEvents,
    MembershipEvents,
    TeamEvents,
    CardEvents,
    AnalyticsRepository,
    AnalyticsQueries,
  ],
})
export class ProfilesModule {}
