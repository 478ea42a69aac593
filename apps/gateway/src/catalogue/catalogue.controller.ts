import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { z } from 'zod';
import { ErrorCode, HttpRoutes, Rpc, type CatalogueItem, type CatalogueList, type RequestMeta } from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';
import { Meta } from '../http/request-meta.js';
import { GatewayRpc } from '../rpc/rpc.client.js';

/** Prices change rarely; five minutes of caching in browsers and proxies spares phones a round trip. */
const CACHE = 'public, max-age=300';
/** Ids are lowercase words and hyphens; anything else cannot be a card. */
const catalogueId = z.string().regex(/^[a-z0-9-]{1,64}$/);

@Controller()
export class CatalogueController {
  constructor(@Inject(GatewayRpc) private readonly rpc: GatewayRpc) {}

  @Get(HttpRoutes.listCatalogue.path)
  async list(@Meta() meta: RequestMeta, @Res({ passthrough: true }) res: Response): Promise<CatalogueList> {
    const list = await this.rpc.call(Rpc.listCatalogue, {}, meta);
    res.setHeader('Cache-Control', CACHE);
    return list;
  }

  @Get(HttpRoutes.getCatalogueItem.path)
  async get(
    @Param('id') id: string,
    @Meta() meta: RequestMeta,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CatalogueItem> {
    if (!catalogueId.safeParse(id).success) {
      throw new ApiHttpException({ statusCode: 404, code: ErrorCode.NotFound, message: 'Card not found' });
    }
    const item = await this.rpc.call(Rpc.getCatalogueItem, { id }, meta);
    res.setHeader('Cache-Control', CACHE);
    return item;
  }
}
