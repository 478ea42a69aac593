import {
  addToCart,
  CART_STORAGE_KEY,
  decreaseInCart,
  parseCart,
  recolourInCart,
  removeFromCart,
  withDefaultColours,
  type CartItem,
  type CartLineRef,
  type CatalogueItem,
} from '@digicard/contracts';

type Listener = () => void;

/**
 * The basket, kept in the browser under `cart` (spec section 3) as a JSON array of cart items, prices in cents.
 * - Reading never throws: `parseCart` drops what does not make sense.
 * - Every component reads it through `useCart()`; a change made here tells them at once, and a change made in
 *   another tab arrives through the `storage` event, so two tabs show the same basket.
 * - When the browser refuses storage (some private modes), the basket lives in memory for this page load.
 */
const listeners = new Set<Listener>();
let memoryValue: string | null = null;
let storageWorks = true;
let cachedRaw: string | null | undefined;
let cachedCart: readonly CartItem[] = [];

function readRaw(): string | null {
  if (!storageWorks) return memoryValue;
  try {
    return localStorage.getItem(CART_STORAGE_KEY);
  } catch {
    storageWorks = false;
    return memoryValue;
  }
}

function writeRaw(value: string): void {
  memoryValue = value;
  if (!storageWorks) return;
  try {
    localStorage.setItem(CART_STORAGE_KEY, value);
  } catch {
    storageWorks = false;
  }
}

function notify(): void {
  for (const listener of listeners) listener();
}

function onStorage(event: StorageEvent): void {
  // `key` is null when another tab cleared the whole storage.
  if (event.key === CART_STORAGE_KEY || event.key === null) notify();
}

/** The basket now; the same array until the stored value changes (what `useSyncExternalStore` needs). */
function get(): readonly CartItem[] {
  const raw = readRaw();
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedCart = parseCart(raw);
  }
  return cachedCart;
}

function save(cart: readonly CartItem[]): void {
  writeRaw(JSON.stringify(cart));
  notify();
}

export const cartStore = {
  get,
  subscribe: (listener: Listener): (() => void) => {
    if (listeners.size === 0) window.addEventListener('storage', onStorage);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) window.removeEventListener('storage', onStorage);
    };
  },
  /** Adds one of the item in `colour` (a new line with quantity 1, or one more of that item in that colour). */
  add(item: Pick<CatalogueItem, 'id' | 'name' | 'normalPrice' | 'specialPrice'>, colour: string): void {
    save(addToCart(get(), item, colour));
  },
  /** One more of a line already in the basket. */
  increase(ref: CartLineRef): void {
    const line = get().find((item) => item.id === ref.id && item.colour === ref.colour);
    if (line)
      save(addToCart(get(), { id: line.id, name: line.name, normalPrice: line.price, specialPrice: line.specialPrice }, line.colour));
  },
  /** One less, never below 1. */
  decrease(ref: CartLineRef): void {
    save(decreaseInCart(get(), ref));
  },
  remove(ref: CartLineRef): void {
    save(removeFromCart(get(), ref));
  },
  /** Every line of the item, whatever its colour (it was paid). */
  removeItem(id: string): void {
    save(get().filter((line) => line.id !== id));
  },
  /** The line in another colour (it joins a line already in that colour). */
  recolour(ref: CartLineRef, colour: string): void {
    save(recolourInCart(get(), ref, colour));
  },
  /** Lines kept from before colours were chosen get their item's first colour, once the catalogue is known. */
  fillColours(items: ReadonlyArray<Pick<CatalogueItem, 'id' | 'colors'>>): void {
    const cart = get();
    const filled = withDefaultColours(cart, items);
    if (filled !== cart) save(filled);
  },
  /** Empties the basket (it became a paid order). */
  clear(): void {
    save([]);
  },
  /** Writes back the cleaned basket when the stored value held items that did not make sense (or duplicates). */
  clean(): void {
    const raw = readRaw();
    if (raw === null) return;
    const cleaned = JSON.stringify(parseCart(raw));
    if (cleaned !== raw) save(parseCart(raw));
  },
};

/** How many cards the basket holds (the sum of the quantities). */
export function cartCount(cart: readonly CartItem[]): number {
  return cart.reduce((sum, item) => sum + item.quantity, 0);
}
