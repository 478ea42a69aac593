import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Rpc, type CatalogueItem, type CatalogueList } from '@digicard/contracts';
import { parseRpc } from '@digicard/server';
import { CatalogueService } from './catalogue.service.js';

@Controller()
export class CatalogueController {
  constructor(@Inject(CatalogueService) private readonly catalogue: CatalogueService) {}

  @MessagePattern(Rpc.listCatalogue.subject)
  list(@Payload() payload: unknown): Promise<CatalogueList> {
    parseRpc(Rpc.listCatalogue, payload);
    return this.catalogue.list();
  }

  @MessagePattern(Rpc.getCatalogueItem.subject)
  get(@Payload() payload: unknown): Promise<CatalogueItem> {
    return this.catalogue.get(parseRpc(Rpc.getCatalogueItem, payload).body.id);
  }
}
