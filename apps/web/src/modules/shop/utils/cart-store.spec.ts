import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { cartStore as CartStore, cartCount as CartCount } from './cart-store';

// The basket kept in the browser's storage, without a browser: an in-memory Storage and a window that dispatches
// `storage` events, installed before the store is loaded. The module keeps whether storage works for the page's
// life, so the test of a refusing storage comes last.

class MemoryStorage {
  readonly values = new Map<string, string>();
  refuse = false;
  getItem(key: string): string | null {
    if (this.refuse) throw new Error('SecurityError');
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    if (this.refuse) throw new Error('QuotaExceededError');
    this.values.set(key, value);
  }
}

const storage = new MemoryStorage();
const win = new EventTarget();
let cartStore: typeof CartStore;
let cartCount: typeof CartCount;

beforeAll(async () => {
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });
  Object.defineProperty(globalThis, 'window', { value: win, configurable: true });
  ({ cartStore, cartCount } = await import('./cart-store'));
});

afterEach(() => {
  if (!storage.refuse) cartStore.clear();
});

const card = { id: 'classic', name: 'Classic card', normalPrice: 45_000, specialPrice: null };
const metal = { id: 'metal', name: 'Metal card', normalPrice: 120_000, specialPrice: 99_000 };
const stored = () => JSON.parse(storage.values.get('cart') ?? 'null') as unknown;

describe('cartStore', () => {
  it('adds a line per item and colour, counts quantities, and keeps the basket under `cart`', () => {
    cartStore.add(card, 'black');
    cartStore.add(card, 'black');
    cartStore.add(card, 'white');
    cartStore.add(metal, 'silver');
    const cart = cartStore.get();
    expect(cart.map((l) => [l.id, l.colour, l.quantity])).toEqual([
      ['classic', 'black', 2],
      ['classic', 'white', 1],
      ['metal', 'silver', 1],
    ]);
    expect(cart[2]).toMatchObject({ price: 120_000, specialPrice: 99_000 });
    expect(cartCount(cart)).toBe(4);
    expect(stored()).toEqual(cart);
  });

  it('gives the same array until the stored value changes (what useSyncExternalStore needs)', () => {
    cartStore.add(card, 'black');
    const first = cartStore.get();
    expect(cartStore.get()).toBe(first);
    cartStore.increase({ id: 'classic', colour: 'black' });
    expect(cartStore.get()).not.toBe(first);
    expect(cartStore.get()[0]?.quantity).toBe(2);
  });

  it('decreases never below one, removes a line or every line of an item, and recolours into a line', () => {
    cartStore.add(card, 'black');
    cartStore.decrease({ id: 'classic', colour: 'black' });
    expect(cartStore.get()[0]?.quantity).toBe(1);
    cartStore.add(card, 'white');
    cartStore.add(card, 'white');
    cartStore.recolour({ id: 'classic', colour: 'white' }, 'black');
    expect(cartStore.get().map((l) => [l.colour, l.quantity])).toEqual([['black', 3]]);
    cartStore.add(card, 'white');
    cartStore.add(metal, 'silver');
    cartStore.remove({ id: 'metal', colour: 'silver' });
    expect(cartStore.get().map((l) => l.id)).toEqual(['classic', 'classic']);
    cartStore.removeItem('classic');
    expect(cartStore.get()).toEqual([]);
  });

  it('gives lines kept from before colours their item’s first colour once the catalogue is known', () => {
    storage.values.set('cart', JSON.stringify([{ id: 'classic', name: 'Classic card', price: 45_000, specialPrice: null, quantity: 2 }]));
    cartStore.fillColours([{ id: 'classic', colors: ['navy', 'black'] }]);
    expect(cartStore.get()).toEqual([
      { id: 'classic', name: 'Classic card', price: 45_000, specialPrice: null, colour: 'navy', quantity: 2 },
    ]);
  });

  it('never throws on a stored value that makes no sense, and cleans it on request', () => {
    storage.values.set('cart', '{not json');
    expect(cartStore.get()).toEqual([]);
    storage.values.set(
      'cart',
      JSON.stringify([
        { id: 'classic', name: 'Classic card', price: 45_000, specialPrice: null, colour: 'black', quantity: 1 },
        { id: '', quantity: -3 },
        'junk',
      ]),
    );
    expect(cartStore.get()).toHaveLength(1);
    cartStore.clean();
    expect(stored()).toEqual([{ id: 'classic', name: 'Classic card', price: 45_000, specialPrice: null, colour: 'black', quantity: 1 }]);
  });

  it('tells subscribers of its own changes and of another tab’s, and stops listening when the last one leaves', () => {
    const seen: string[] = [];
    const stopA = cartStore.subscribe(() => seen.push('a'));
    const stopB = cartStore.subscribe(() => seen.push('b'));
    cartStore.add(card, 'black');
    expect(seen).toEqual(['a', 'b']);
    win.dispatchEvent(Object.assign(new Event('storage'), { key: 'cart' }));
    win.dispatchEvent(Object.assign(new Event('storage'), { key: 'session' }));
    win.dispatchEvent(Object.assign(new Event('storage'), { key: null }));
    expect(seen).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
    stopA();
    stopB();
    win.dispatchEvent(Object.assign(new Event('storage'), { key: 'cart' }));
    cartStore.add(card, 'black');
    expect(seen).toHaveLength(6);
  });

  it('keeps the basket in memory for the page when the browser refuses storage', () => {
    cartStore.add(card, 'black');
    storage.refuse = true;
    cartStore.add(card, 'black');
    expect(cartStore.get()[0]?.quantity).toBe(2);
    cartStore.add(metal, 'silver');
    expect(cartCount(cartStore.get())).toBe(3);
  });
});
