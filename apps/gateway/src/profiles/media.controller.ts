import { Controller, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { PageRoutes, type RequestMeta } from '@digicard/contracts';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { VisitorDownloads } from './visitor-downloads.js';

/**
 * Uploaded images, at `/media/<random id>.webp` (outside the API: pages link to them), and as a Google Wallet pass's
 * logo at `/media/wallet-logo/<random id>.png` (Google fetches it from there).
 */
@Controller()
export class MediaController {
  constructor(@Inject(VisitorDownloads) private readonly downloads: VisitorDownloads) {}

  @Route(PageRoutes.media)
  media(@Param('file') file: string, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    return this.downloads.media(file, meta, res);
  }

  @Route(PageRoutes.walletLogo)
  walletLogo(@Param('file') file: string, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    return this.downloads.walletLogo(file, meta, res);
  }
}
