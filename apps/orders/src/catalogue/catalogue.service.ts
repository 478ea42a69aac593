import { Inject, Injectable } from '@nestjs/common';
import sanitizeHtml from 'sanitize-html';
import type { CatalogueItem, CatalogueList } from '@digicard/contracts';
import { ServiceError } from '@digicard/server';
import { CatalogueRepository, type CatalogueRow } from './catalogue.repository.js';

/** What the shop's more-info text may contain: text formatting and links, nothing that runs. */
const MORE_INFO_POLICY: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'ul', 'ol', 'li', 'strong', 'em', 'b', 'i', 'br', 'h3', 'h4', 'a'],
  allowedAttributes: { a: ['href', 'title', 'rel'] },
  allowedSchemes: ['https', 'mailto', 'tel'],
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
};

export const sanitizeMoreInfo = (html: string): string => sanitizeHtml(html, MORE_INFO_POLICY);

const toItem = (row: CatalogueRow): CatalogueItem => ({
  id: row.id,
  kind: row.kind,
  path: row.path,
  name: row.name,
  normalPrice: row.normalPrice,
  specialPrice: row.specialPrice,
  catImage: row.catImage,
  images: row.images,
  heading: row.heading,
  benefits: row.benefits,
  cta: row.cta,
  dimensions: row.dimensions,
  temp: row.temp,
  storeTemp: row.storeTemp,
  years: row.years,
  weight: row.weight,
  printing: row.printing,
  readRange: row.readRange,
  material: row.material,
  colors: row.colors,
  moreInfo: sanitizeMoreInfo(row.moreInfo),
  includedGoldMonths: row.includedGoldMonths,
  sortOrder: row.sortOrder,
});

@Injectable()
export class CatalogueService {
  constructor(@Inject(CatalogueRepository) private readonly repository: CatalogueRepository) {}

  async list(): Promise<CatalogueList> {
    return { items: (await this.repository.list()).map(toItem) };
  }

  async get(id: string): Promise<CatalogueItem> {
    const row = await this.repository.get(id);
    if (!row) throw ServiceError.notFound('Card not found');
    return toItem(row);
  }
}
