import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageRoutes } from '@digicard/contracts';
import { Route } from '../http/route.js';
import { WebApp } from './web-app.js';

/** The fallback: registered last, so that every other route is matched first. */
@Controller()
export class WebAppController {
  constructor(@Inject(WebApp) private readonly app: WebApp) {}

  @Route(PageRoutes.webApp)
  page(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.app.serve(req, res);
  }
}
