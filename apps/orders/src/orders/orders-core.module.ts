import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { FulfilmentRepository } from '../fulfilment/fulfilment.repository.js';
import { OrdersRepository } from './orders.repository.js';

/** The repositories both the checkout side and the print side of orders write through. */
@Module({
  imports: [CatalogueModule],
  providers: [OrdersRepository, FulfilmentRepository],
  exports: [OrdersRepository, FulfilmentRepository, CatalogueModule],
})
export class OrdersCoreModule {}
