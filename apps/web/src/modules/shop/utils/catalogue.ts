import type { CatalogueItem, CatalogueKind } from '@digicard/contracts';

/** The items of one kind, in the catalogue's order. */
export function itemsOfKind(items: readonly CatalogueItem[], kind: CatalogueKind): CatalogueItem[] {
  return items.filter((item) => item.kind === kind);
}

/** One item of the given kind, or undefined (the page then says "Card not found"). */
export function findItem(items: readonly CatalogueItem[], kind: CatalogueKind, id: string | undefined): CatalogueItem | undefined {
  return items.find((item) => item.kind === kind && item.id === id);
}
