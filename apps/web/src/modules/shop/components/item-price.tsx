import { formatRand, type CatalogueItem } from '@digicard/contracts';
import { VisuallyHidden } from '@digicard/ui';

/** The footnote every struck-through normal price refers to. */
export const NORMAL_PRICE_FOOTNOTE = '* Normal price.';

/**
 * An item's price. With a special price: the special price highlighted, and the normal price beside it struck
 * through and marked with an asterisk (screen readers hear "Special price: R899.00, Normal price: R1,197.00").
 */
export function ItemPrice({ item, className }: { item: Pick<CatalogueItem, 'normalPrice' | 'specialPrice'>; className?: string }) {
  const classes = className ? `price ${className}` : 'price';
  if (item.specialPrice === null) {
    return (
      <p className={classes}>
        <span className="price__amount">{formatRand(item.normalPrice)}</span>
      </p>
    );
  }
  return (
    <p className={classes}>
      <span className="price__special">
        <VisuallyHidden>Special price: </VisuallyHidden>
        {formatRand(item.specialPrice)}
      </span>{' '}
      <span className="price__normal">
        <VisuallyHidden>Normal price: </VisuallyHidden>
        <s>{formatRand(item.normalPrice)}</s>
        <span aria-hidden="true">*</span>
      </span>
    </p>
  );
}
