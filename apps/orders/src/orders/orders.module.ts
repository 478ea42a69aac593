import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { OrdersController } from './orders.controller.js';
import { OrdersQueries } from './orders-queries.js';
import { OrdersRepository } from './orders.repository.js';
import { MarkOrderPaid } from './use-cases/mark-order-paid.use-case.js';
import { PlaceOrder } from './use-cases/place-order.use-case.js';

@Module({
  imports: [CatalogueModule],
  controllers: [OrdersController],
  providers: [OrdersRepository, OrdersQueries, PlaceOrder, MarkOrderPaid],
})
export class OrdersModule {}
