import { z } from 'zod';

export const CatalogueKind = z.enum(['accessory', 'special']);
export type CatalogueKind = z.infer<typeof CatalogueKind>;

/** Money is whole cents everywhere; only the display turns it into rand. */
export const Cents = z.number().int().min(0);

export const CatalogueImageSchema = z.object({ image: z.string(), alt: z.string() });

/** A card or special as the shop shows it (spec section 3, "Catalogue item"). */
export const CatalogueItemSchema = z
  .object({
    id: z.string(),
    kind: CatalogueKind,
    path: z.string(),
    name: z.string(),
    /** The normal price, in cents. */
    normalPrice: Cents,
    /** The special price, in cents; null for items sold at their normal price. */
    specialPrice: Cents.nullable(),
    catImage: z.string(),
    images: z.array(CatalogueImageSchema),
    heading: z.string(),
    benefits: z.array(z.string()),
    cta: z.string(),
    dimensions: z.string(),
    temp: z.string(),
    storeTemp: z.string(),
    years: z.string(),
    weight: z.string(),
    printing: z.string(),
    readRange: z.string(),
    material: z.string(),
    colors: z.array(z.string()),
    /** Sanitised HTML: safe to put in the page as it is. */
    moreInfo: z.string(),
    /** Months of DigiGold included (specials); 0 for none. */
    includedGoldMonths: z.number().int().min(0),
    sortOrder: z.number().int(),
  })
  .meta({ id: 'CatalogueItem' });
export type CatalogueItem = z.infer<typeof CatalogueItemSchema>;

export const CatalogueListSchema = z.object({ items: z.array(CatalogueItemSchema) }).meta({ id: 'CatalogueList' });
export type CatalogueList = z.infer<typeof CatalogueListSchema>;

export const CatalogueItemRefSchema = z.object({ id: z.string().min(1).max(64) });

/** The price a buyer pays: the special price where there is one. */
export const unitPrice = (item: { normalPrice: number; specialPrice: number | null }): number => item.specialPrice ?? item.normalPrice;

const grouped = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** One way to show rand everywhere: R1,099.00 (the format South African card and bank statements use). */
export const formatRand = (cents: number): string => `${cents < 0 ? '-' : ''}R${grouped.format(Math.abs(cents) / 100)}`;

/** At most this many of one card per order (more: a quote from sales). */
export const MAX_QUANTITY = 20;

/** The basket kept in the browser under the key `cart` (spec section 3, "Cart item"); prices in cents. */
export const CART_STORAGE_KEY = 'cart';
export const CartItemSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(200),
  price: Cents,
  specialPrice: Cents.nullable(),
  quantity: z.number().int().min(1).max(MAX_QUANTITY),
});
export type CartItem = z.infer<typeof CartItemSchema>;

/**
 * Reads a stored basket without ever throwing: a corrupted or hand-edited value loses only the items that do not
 * make sense, and duplicate lines are merged.
 */
export function parseCart(raw: string | null): CartItem[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const items = new Map<string, CartItem>();
  for (const entry of value) {
    const parsed = CartItemSchema.safeParse(entry);
    if (!parsed.success) continue;
    const existing = items.get(parsed.data.id);
    if (existing) existing.quantity = Math.min(MAX_QUANTITY, existing.quantity + parsed.data.quantity);
    else items.set(parsed.data.id, { ...parsed.data });
  }
  return [...items.values()];
}

/** Adding an item already in the basket adds one to its quantity (the old product's defect, mended). */
export function addToCart(cart: readonly CartItem[], item: Pick<CatalogueItem, 'id' | 'name' | 'normalPrice' | 'specialPrice'>): CartItem[] {
  const existing = cart.find((c) => c.id === item.id);
  if (existing) return cart.map((c) => (c.id === item.id ? { ...c, quantity: Math.min(MAX_QUANTITY, c.quantity + 1) } : c));
  return [...cart, { id: item.id, name: item.name, price: item.normalPrice, specialPrice: item.specialPrice, quantity: 1 }];
}

/** One less, never below 1. */
export const decreaseInCart = (cart: readonly CartItem[], id: string): CartItem[] =>
  cart.map((c) => (c.id === id ? { ...c, quantity: Math.max(1, c.quantity - 1) } : c));

export const removeFromCart = (cart: readonly CartItem[], id: string): CartItem[] => cart.filter((c) => c.id !== id);

/** The sum of each line's price times its quantity, at the price the buyer pays. */
export const cartTotal = (cart: readonly CartItem[]): number =>
  cart.reduce((sum, c) => sum + unitPrice({ normalPrice: c.price, specialPrice: c.specialPrice }) * c.quantity, 0);
