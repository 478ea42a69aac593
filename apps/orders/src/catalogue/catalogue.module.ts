import { Module } from '@nestjs/common';
import { CatalogueController } from './catalogue.controller.js';
import { CatalogueQueries } from './catalogue-queries.js';
import { CatalogueRepository } from './catalogue.repository.js';

@Module({ controllers: [CatalogueController], providers: [CatalogueRepository, CatalogueQueries], exports: [CatalogueRepository] })
export class CatalogueModule {}
