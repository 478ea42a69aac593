import { Controller, Inject } from '@nestjs/common';
import { Rpc } from '@digicard/contracts';
import { Handles, type RpcBody } from '@digicard/server';
import { CatalogueQueries } from './catalogue-queries.js';

/** The shop's catalogue subjects: public reads, each one call. */
@Controller()
export class CatalogueController {
  constructor(@Inject(CatalogueQueries) private readonly queries: CatalogueQueries) {}

  @Handles(Rpc.listCatalogue)
  list() {
    return this.queries.list();
  }

  @Handles(Rpc.getCatalogueItem)
  get({ id }: RpcBody<typeof Rpc.getCatalogueItem>) {
    return this.queries.item(id);
  }
}
