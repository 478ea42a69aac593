import { Controller, Header, Inject, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  HttpRoutes,
  Rpc,
  type ApplePassLog,
  type GoogleWalletLink,
  type RepPassesSent,
  type RequestMeta,
  type WalletStatus,
} from '@digicard/contracts';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { ValidBody } from '../http/route-params.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { ApplePassToken } from './apple-pass-token.js';
import { AppleWebService, type DevicePath, type PassPath } from './apple-web-service.js';

/**
 * Wallet passes: the owner's (dashboard: Apple's pass, Google's save link), a leader's for the reps, and Apple's pass
 * web service (devices, with the pass's own token).
 */
@Controller()
export class WalletController {
  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(AppleWebService) private readonly apple: AppleWebService,
  ) {}

  @Route(HttpRoutes.getWalletStatus)
  status(@Meta() meta: RequestMeta): Promise<WalletStatus> {
    return this.rpc.call(Rpc.getWalletStatus, {}, meta);
  }

  @Route(HttpRoutes.downloadApplePass)
  download(@Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    return this.apple.download(meta, res);
  }

  /** A signed link to the owner's card: never kept by a cache. */
  @Route(HttpRoutes.getGoogleWalletLink)
  @Header('Cache-Control', 'private, no-store')
  googleLink(@Meta() meta: RequestMeta): Promise<GoogleWalletLink> {
    return this.rpc.call(Rpc.issueGoogleWalletLink, {}, meta);
  }

  @Route(HttpRoutes.offerRepPasses)
  offerRepPasses(@Meta() meta: RequestMeta): Promise<RepPassesSent> {
    return this.rpc.call(Rpc.offerRepPasses, {}, meta);
  }

  @Route(HttpRoutes.registerApplePassDevice)
  register(
    @Param() path: DevicePath,
    @ValidBody() body: { pushToken: string },
    @ApplePassToken() token: string,
    @Meta() meta: RequestMeta,
    @Res() res: Response,
  ): Promise<void> {
    return this.apple.register(path, body.pushToken, token, meta, res);
  }

  @Route(HttpRoutes.unregisterApplePassDevice)
  unregister(@Param() path: DevicePath, @ApplePassToken() token: string, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    return this.apple.unregister(path, token, meta, res);
  }

  @Route(HttpRoutes.listApplePassSerials)
  changed(
    @Param() path: DevicePath,
    @Query('passesUpdatedSince') since: unknown,
    @Meta() meta: RequestMeta,
    @Res() res: Response,
  ): Promise<void> {
    return this.apple.changed(path, since, meta, res);
  }

  @Route(HttpRoutes.getLatestApplePass)
  latest(
    @Param() path: PassPath,
    @ApplePassToken() token: string,
    @Req() req: Request,
    @Meta() meta: RequestMeta,
    @Res() res: Response,
  ): Promise<void> {
    return this.apple.latest(path, token, req, meta, res);
  }

  @Route(HttpRoutes.logApplePassErrors)
  log(@ValidBody() body: ApplePassLog, @Meta() meta: RequestMeta): void {
    this.apple.log(body, meta);
  }
}
