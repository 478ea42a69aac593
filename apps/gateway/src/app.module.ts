import { Module, type DynamicModule } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import type { Redis } from 'ioredis';
import type { Logger } from '@digicard/config';
import { CONFIG, LOGGER } from '@digicard/server';
import type { Config } from './config.js';
import { AccountsController } from './accounts/accounts.controller.js';
import { CatalogueController } from './catalogue/catalogue.controller.js';
import { OwnProfileController } from './profiles/own-profile.controller.js';
import { PublicPageService } from './profiles/public-page.service.js';
import { PublicProfileController } from './profiles/public-profile.controller.js';
import { EnquiriesController } from './enquiries/enquiries.controller.js';
import { GatewayHealthController } from './health/health.controller.js';
import { GatewayRpc } from './rpc/rpc.client.js';
import { RateLimiter } from './security/rate-limiter.js';
import { SessionStore } from './session/session.store.js';
import { NATS_CLIENT, REDIS } from './tokens.js';
import { WEB_INDEX, WebIndex } from './web/web-index.js';
import { WebController } from './web/web.controller.js';

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
      // The catch-all web controller comes last so that every API route is matched first.
      controllers: [
        GatewayHealthController,
        AccountsController,
        CatalogueController,
        EnquiriesController,
        OwnProfileController,
        PublicProfileController,
        WebController,
      ],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: LOGGER, useValue: r.logger },
        { provide: REDIS, useValue: r.redis },
        { provide: NATS_CLIENT, useValue: r.nats },
        {
          provide: WEB_INDEX,
          useValue: new WebIndex(config.WEB_DIST_DIR, {
            brandName: config.BRAND_NAME,
            salesEmail: config.SALES_EMAIL,
            whatsappNumber: config.WHATSAPP_NUMBER,
          }),
        },
        GatewayRpc,
        RateLimiter,
        SessionStore,
        PublicPageService,
      ],
    };
  }
}
