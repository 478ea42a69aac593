import type { CartItem } from '@digicard/contracts';
import { useSyncExternalStore } from 'react';
import { cartStore } from '../utils/cart-store';

const EMPTY: readonly CartItem[] = [];
const serverSnapshot = (): readonly CartItem[] => EMPTY;

/** The basket, kept up to date with changes made on this page and in other tabs. */
export function useCart(): readonly CartItem[] {
  return useSyncExternalStore(cartStore.subscribe, cartStore.get, serverSnapshot);
}
