import { Controller, Inject, Next, Req, Res } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { PageRoutes } from '@digicard/contracts';
import { Route } from '../http/route.js';
import type { SessionRequest } from '../session/session.middleware.js';
import { PublicProfilePage } from './public-profile-page.js';

/** `/{username}`, matched before the web app's fallback, which answers any single segment that is no profile. */
@Controller()
export class PublicProfilePageController {
  constructor(@Inject(PublicProfilePage) private readonly page: PublicProfilePage) {}

  @Route(PageRoutes.publicProfile)
  async profile(@Req() req: SessionRequest, @Res() res: Response, @Next() next: NextFunction): Promise<void> {
    if (!(await this.page.serve(req, res))) next();
  }
}
