import { Module, type DynamicModule } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import type { Redis } from 'ioredis';
import type { Logger } from '@digicard/config';
import { CONFIG, LOGGER } from '@digicard/server';
import type { Config } from './config.js';
import { AccountFlows } from './accounts/account-flows.js';
import { AnalyticsController } from './analytics/analytics.controller.js';
import { CrmController } from './crm/crm.controller.js';
import { PageAnalytics } from './analytics/page-analytics.js';
import { BillingController } from './billing/billing.controller.js';
import { AccountsController } from './accounts/accounts.controller.js';
import { LocalStrategy } from './auth/local.strategy.js';
import { SessionSignIn } from './auth/session-sign-in.js';
import { CatalogueController } from './catalogue/catalogue.controller.js';
import { EnquiriesController } from './enquiries/enquiries.controller.js';
import { ItnSourceRejections } from './billing/itn-gate.js';
import { GatewayHealth } from './health/gateway-health.js';
import { GatewayHealthController } from './health/health.controller.js';
import { OrderFlows } from './orders/order-flows.js';
import { OrdersController } from './orders/orders.controller.js';
import { StaffConsole } from './staff/staff-console.js';
import { StaffController } from './staff/staff.controller.js';
import { PrintController } from './orders/print.controller.js';
import { ImageUploads } from './profiles/images.js';
import { MediaController } from './profiles/media.controller.js';
import { OwnProfileController } from './profiles/own-profile.controller.js';
import { OwnerDownloads } from './profiles/owner-downloads.js';
import { AppleWebService } from './wallet/apple-web-service.js';
import { WalletController } from './wallet/wallet.controller.js';
import { PublicPageService } from './profiles/public-page.service.js';
import { PublicProfileController } from './profiles/public-profile.controller.js';
import { VisitorDownloads } from './profiles/visitor-downloads.js';
import { GatewayRpc } from './rpc/rpc.client.js';
import { RateLimiter } from './security/rate-limiter.js';
import { RoleSync } from './session/role-sync.js';
import { SessionStore } from './session/session.store.js';
import { TeamTier } from './teams/team-tier.js';
import { TeamsController } from './teams/teams.controller.js';
import { SsoController } from './sso/sso.controller.js';
import { ScimCalls } from './scim/scim-calls.js';
import { ScimController } from './scim/scim.controller.js';
import { ScimExceptionFilter } from './scim/scim-exception.filter.js';
import { TeamScimController } from './scim/team-scim.controller.js';
import { SsoFlow } from './sso/sso-flow.js';
import { NATS_CLIENT, REDIS } from './tokens.js';
import { CataloguePageIds } from './web/catalogue-page-ids.js';
import { ServedPlans } from './web/served-plans.js';
import { ProfilePageScriptController } from './web/profile-page-script.controller.js';
import { PublicProfilePage } from './web/public-profile-page.js';
import { PublicProfilePageController } from './web/public-profile-page.controller.js';
import { CardRedirectController } from './web/card-redirect.controller.js';
import { WebApp } from './web/web-app.js';
import { WebAppController } from './web/web-app.controller.js';
import { WEB_INDEX, WebIndex } from './web/web-index.js';

export interface GatewayResources {
  config: Config;
  logger: Logger;
  redis: Redis;
  nats: ClientProxy;
}

@Module({})
export class GatewayModule {
  static register(r: GatewayResources): DynamicModule {
    const { config } = r;
    return {
      module: GatewayModule,
      // Routes are matched in this order: the API and the probes, then the pages and assets, then `/{username}`
      // (single segments), and last the web app's fallback, which answers every path nothing else did.
      controllers: [
        GatewayHealthController,
        AccountsController,
        BillingController,
        CatalogueController,
        EnquiriesController,
        OwnProfileController,
        AnalyticsController,
        TeamsController,
        SsoController,
        TeamScimController,
        ScimController,
        CrmController,
        WalletController,
        OrdersController,
        PrintController,
        PublicProfileController,
        MediaController,
        ProfilePageScriptController,
        StaffController,
        CardRedirectController,
        PublicProfilePageController,
        WebAppController,
      ],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: LOGGER, useValue: r.logger },
        { provide: REDIS, useValue: r.redis },
        { provide: NATS_CLIENT, useValue: r.nats },
        {
          provide: WEB_INDEX,
          useFactory: () =>
            WebIndex.load(config.WEB_DIST_DIR, {
              brandName: config.BRAND_NAME,
              salesEmail: config.SALES_EMAIL,
              whatsappNumber: config.WHATSAPP_NUMBER,
              ...(config.TEDX_GEORGE_COMMUNITY_URL ? { tedxGeorgeCommunityUrl: config.TEDX_GEORGE_COMMUNITY_URL } : {}),
            }),
        },
        GatewayRpc,
        RateLimiter,
        ItnSourceRejections,
        SessionStore,
        RoleSync,
        SessionSignIn,
        // Registers the `local` Passport strategy (sign-in with email and password).
        LocalStrategy,
        AccountFlows,
        SsoFlow,
        OrderFlows,
        GatewayHealth,
        ImageUploads,
        OwnerDownloads,
        AppleWebService,
        VisitorDownloads,
        PublicPageService,
        PageAnalytics,
        PublicProfilePage,
        CataloguePageIds,
        ServedPlans,
        WebApp,
        StaffConsole,
        TeamTier,
        ScimExceptionFilter,
        ScimCalls,
      ],
    };
  }
}
