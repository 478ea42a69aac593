import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import {
  HttpRoutes,
  type MessageResponse,
  type RequestMeta,
  type SaveSsoSettings,
  type SsoCallbackQuerySchema,
  type SsoSettings,
  type SsoStart,
} from '@digicard/contracts';
import { CurrentSession, Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { ValidBody, ValidQuery } from '../http/route-params.js';
import type { Session } from '../session/session.store.js';
import { TeamTier } from '../teams/team-tier.js';
import { SsoFlow } from './sso-flow.js';

/** Company sign-in: the leader's settings in the Teams section (DigiPlatinum), and the login page's way in. */
@Controller()
export class SsoController {
  constructor(
    @Inject(SsoFlow) private readonly sso: SsoFlow,
    @Inject(TeamTier) private readonly tier: TeamTier,
  ) {}

  @Route(HttpRoutes.getSsoSettings)
  async settings(@Meta() meta: RequestMeta): Promise<SsoSettings> {
    await this.tier.assertPlatinum(meta);
    return this.sso.settings(meta);
  }

  @Route(HttpRoutes.saveSsoSettings)
  async save(@ValidBody() body: SaveSsoSettings, @Meta() meta: RequestMeta): Promise<SsoSettings> {
    await this.tier.assertPlatinum(meta);
    return this.sso.save(body, meta);
  }

  @Route(HttpRoutes.removeSsoSettings)
  async remove(@Meta() meta: RequestMeta): Promise<MessageResponse> {
    await this.tier.assertPlatinum(meta);
    return this.sso.remove(meta);
  }

  @Route(HttpRoutes.startSso)
  start(
    @ValidBody() body: SsoStart,
    @Meta() meta: RequestMeta,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ redirectUrl: string }> {
    return this.sso.start(body, meta, res);
  }

  @Route(HttpRoutes.ssoCallback)
  callback(
    @ValidQuery() query: z.infer<typeof SsoCallbackQuerySchema>,
    @CurrentSession() session: Session | null,
    @Meta() meta: RequestMeta,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.sso.callback(query, req, res, session, meta);
  }
}
