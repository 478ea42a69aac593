import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ErrorCode, ImplementedWebRoutes } from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';
import { WEB_INDEX, WebIndex } from './web-index.js';

const pages = new Set<string>(ImplementedWebRoutes);

/** Every other GET is a page of the web app: 200 for the pages it has, 404 (same app, not-found page) otherwise. */
@Controller()
export class WebController {
  constructor(@Inject(WEB_INDEX) private readonly index: WebIndex) {}

  @Get('{*path}')
  page(@Req() req: Request, @Res() res: Response): void {
    if (req.path === '/api' || req.path.startsWith('/api/')) {
      throw new ApiHttpException({ statusCode: 404, code: ErrorCode.NotFound, message: 'No such API route.' });
    }
    if (this.index.html === null) {
      res.status(503).type('text').send('The web app has not been built yet: run `npm run build` (npm start does it).');
      return;
    }
    const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
    res
      .status(pages.has(path) ? 200 : 404)
      .type('html')
      .set('Cache-Control', 'no-cache')
      .send(this.index.html);
  }
}
