import { Controller, Inject } from '@nestjs/common';
import { Rpc, type CatalogueItem, type CatalogueList } from '@digicard/contracts';
import { Handles } from '@digicard/server';
import { CatalogueService } from './catalogue.service.js';

@Controller()
export class CatalogueController {
  constructor(@Inject(CatalogueService) private readonly catalogue: CatalogueService) {}

  @Handles(Rpc.listCatalogue)
  list(): Promise<CatalogueList> {
    return this.catalogue.list();
  }

  @Handles(Rpc.getCatalogueItem)
  get({ id }: { id: string }): Promise<CatalogueItem> {
    return this.catalogue.get(id);
  }
}
