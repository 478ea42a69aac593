import { Controller, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { PageRoutes, type RequestMeta } from '@digicard/contracts';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { VisitorDownloads } from './visitor-downloads.js';

/** Uploaded images, at `/media/<random id>.webp` (outside the API: pages link to them). */
@Controller()
export class MediaController {
  constructor(@Inject(VisitorDownloads) private readonly downloads: VisitorDownloads) {}

  @Route(PageRoutes.media)
  media(@Param('file') file: string, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    return this.downloads.media(file, meta, res);
  }
}
