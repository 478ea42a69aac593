import { Controller, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  HttpRoutes,
  Rpc,
  type MoveOrder,
  type PageRequest,
  type PrintOrder,
  type PrintQueue,
  type RecordCard,
  type RequestMeta,
} from '@digicard/contracts';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { ValidBody, ValidQuery } from '../http/route-params.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { sendFile } from './file-response.js';

/** The print console's API: role `print` only (the route table says so; orders checks the role again). */
@Controller()
export class PrintController {
  constructor(@Inject(GatewayRpc) private readonly rpc: GatewayRpc) {}

  @Route(HttpRoutes.printQueue)
  queue(@ValidQuery() page: PageRequest, @Meta() meta: RequestMeta): Promise<PrintQueue> {
    return this.rpc.call(Rpc.printQueue, page, meta);
  }

  @Route(HttpRoutes.printOrder)
  order(@Param('orderId') orderId: string, @Meta() meta: RequestMeta): Promise<PrintOrder> {
    return this.rpc.call(Rpc.printOrder, { orderId }, meta);
  }

  @Route(HttpRoutes.printProofPdf)
  async proofPdf(@Param('orderId') orderId: string, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    sendFile(res, await this.rpc.call(Rpc.printProofFile, { orderId, kind: 'pdf' }, meta));
  }

  @Route(HttpRoutes.printProofPng)
  async proofPng(@Param('orderId') orderId: string, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    sendFile(res, await this.rpc.call(Rpc.printProofFile, { orderId, kind: 'png' }, meta));
  }

  @Route(HttpRoutes.moveOrder)
  move(@Param('orderId') orderId: string, @ValidBody() body: MoveOrder, @Meta() meta: RequestMeta): Promise<PrintOrder> {
    return this.rpc.call(Rpc.moveOrder, { orderId, ...body }, meta);
  }

  @Route(HttpRoutes.recordCard)
  recordCard(
    @Param('orderId') orderId: string,
    @Param('serial') serial: string,
    @ValidBody() body: RecordCard,
    @Meta() meta: RequestMeta,
  ): Promise<PrintOrder> {
    return this.rpc.call(Rpc.recordCard, { orderId, serial, ...body }, meta);
  }

  @Route(HttpRoutes.rerenderProof)
  rerender(@Param('orderId') orderId: string, @Meta() meta: RequestMeta): Promise<PrintOrder> {
    return this.rpc.call(Rpc.rerenderProof, { orderId }, meta);
  }

  @Route(HttpRoutes.packingSlip)
  async packingSlip(@Param('orderId') orderId: string, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    sendFile(res, await this.rpc.call(Rpc.packingSlip, { orderId }, meta));
  }
}
