import { Controller, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HttpRoutes, Rpc, type CatalogueItem, type CatalogueList, type RequestMeta } from '@digicard/contracts';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { GatewayRpc } from '../rpc/rpc.client.js';

/** Prices change rarely; five minutes of caching in browsers and proxies spares phones a round trip. Answers only, never errors. */
async function cached<T>(res: Response, answer: Promise<T>): Promise<T> {
  const value = await answer;
  res.setHeader('Cache-Control', 'public, max-age=300');
  return value;
}

@Controller()
export class CatalogueController {
  constructor(@Inject(GatewayRpc) private readonly rpc: GatewayRpc) {}

  @Route(HttpRoutes.listCatalogue)
  list(@Meta() meta: RequestMeta, @Res({ passthrough: true }) res: Response): Promise<CatalogueList> {
    return cached(res, this.rpc.call(Rpc.listCatalogue, {}, meta));
  }

  @Route(HttpRoutes.getCatalogueItem)
  get(@Param('id') id: string, @Meta() meta: RequestMeta, @Res({ passthrough: true }) res: Response): Promise<CatalogueItem> {
    return cached(res, this.rpc.call(Rpc.getCatalogueItem, { id }, meta));
  }
}
