import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { CardsRepository } from '../fulfilment/cards.repository.js';
import { CustomersRepository } from '../fulfilment/customers.repository.js';
import { FulfilmentRepository } from '../fulfilment/fulfilment.repository.js';
import { ProofsRepository } from '../fulfilment/proofs.repository.js';
import { TeamMembersRepository } from '../fulfilment/team-members.repository.js';
import { OrdersRepository } from './orders.repository.js';

/** The print side's repositories, one per aggregate (each with the SQL of its own tables). */
const FulfilmentRepositories = [FulfilmentRepository, CardsRepository, ProofsRepository, TeamMembersRepository, CustomersRepository];

/** The repositories both the checkout side and the print side of orders write through. */
@Module({
  imports: [CatalogueModule],
  providers: [OrdersRepository, ...FulfilmentRepositories],
  exports: [OrdersRepository, ...FulfilmentRepositories, CatalogueModule],
})
export class OrdersCoreModule {}
