import { Controller, Res } from '@nestjs/common';
import type { Response } from 'express';
import { PageRoutes } from '@digicard/contracts';
import { clientScript } from '@digicard/profile-view';
import { Route } from '../http/route.js';

/** The public profile page's one small script (panels and forms): React is not shipped to visitors. */
@Controller()
export class ProfilePageScriptController {
  /** Its URL carries a hash of its content, so it is cached for a year. */
  @Route(PageRoutes.profilePageScript)
  script(@Res() res: Response): void {
    res.set('Cache-Control', 'public, max-age=31536000, immutable').type('application/javascript').sendFile(clientScript().path);
  }
}
