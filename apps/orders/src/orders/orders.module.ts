import { Module } from '@nestjs/common';
import { OrdersController } from './orders.controller.js';
import { OrdersCoreModule } from './orders-core.module.js';
import { OrdersQueries } from './orders-queries.js';
import { MarkOrderPaid } from './use-cases/mark-order-paid.use-case.js';
import { PlaceOrder } from './use-cases/place-order.use-case.js';
import { OrderPayments } from './handlers/order-payments.handler.js';
import { SignUpSpecials } from './handlers/sign-up-specials.handler.js';

@Module({
  imports: [OrdersCoreModule],
  controllers: [OrdersController],
  providers: [OrdersQueries, PlaceOrder, MarkOrderPaid, OrderPayments, SignUpSpecials],
})
export class OrdersModule {}
