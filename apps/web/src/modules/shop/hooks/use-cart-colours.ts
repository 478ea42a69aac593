import { useEffect } from 'react';
import { cartStore } from '../utils/cart-store';
import { useCatalogue } from './use-catalogue';

/**
 * A basket kept from before colours were chosen: once the catalogue is known, each of its lines gets its item's first
 * colour (what such an order was always given), so the buyer sees it and may change it. Answers the catalogue.
 */
export function useCartColours() {
  const catalogue = useCatalogue();
  useEffect(() => {
    if (catalogue.status === 'loaded') cartStore.fillColours(catalogue.items);
  }, [catalogue]);
  return catalogue;
}
