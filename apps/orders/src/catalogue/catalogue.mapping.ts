import sanitizeHtml from 'sanitize-html';
import type { CatalogueItem } from '@digicard/contracts';
import type { CatalogueRow } from './catalogue.repository.js';

/** What the shop's more-info text may contain: text formatting and links, nothing that runs. */
const MORE_INFO_POLICY: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'ul', 'ol', 'li', 'strong', 'em', 'b', 'i', 'br', 'h3', 'h4', 'a'],
  allowedAttributes: { a: ['href', 'title', 'rel'] },
  allowedSchemes: ['https', 'mailto', 'tel'],
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
};

export const sanitizeMoreInfo = (html: string): string => sanitizeHtml(html, MORE_INFO_POLICY);

/** A stored card or special as the shop shows it: the more-info HTML is sanitised on the way out. */
export const toItem = (row: CatalogueRow): CatalogueItem => ({
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
