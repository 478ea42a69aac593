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

/** A card colour as the basket and the checkout name it (one of a catalogue item's `colors`). */
export const CardColourSchema = z.string().trim().min(1, 'Please choose a colour.').max(40, 'Please choose a colour.');

/** `colour` as the item spells it in `colors` (any case), or null when the item does not come in it. */
export function catalogueColour(item: Pick<CatalogueItem, 'colors'>, colour: string): string | null {
  const wanted = colour.trim().toLowerCase();
  return item.colors.find((c) => c.toLowerCase() === wanted) ?? null;
}

/** The refusal of a colour the item does not come in: "The PVC NFC Card comes in Black or White." */
export function colourRefusal(item: Pick<CatalogueItem, 'name' | 'colors'>): string {
  const list = item.colors.length <= 1 ? (item.colors[0] ?? '') : `${item.colors.slice(0, -1).join(', ')} or ${item.colors.at(-1)}`;
  return `The ${item.name} comes in ${list}.`;
}

/** The basket kept in the browser under the key `cart` (spec section 3, "Cart item"); prices in cents. */
export const CART_STORAGE_KEY = 'cart';
export const CartItemSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(200),
  price: Cents,
  specialPrice: Cents.nullable(),
  /** The colour chosen; absent in baskets kept from before colours were chosen (the basket fills in the first). */
  colour: z.string().min(1).max(40).optional(),
  quantity: z.number().int().min(1).max(MAX_QUANTITY),
});
export type CartItem = z.infer<typeof CartItemSchema>;

/** A basket line is one item in one colour: the same card in two colours is two lines. */
export type CartLineRef = Pick<CartItem, 'id' | 'colour'>;
const sameLine = (a: CartLineRef, b: CartLineRef): boolean => a.id === b.id && (a.colour ?? '') === (b.colour ?? '');

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
  return mergeLines(
    value.flatMap((entry) => {
      const parsed = CartItemSchema.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    }),
  );
}

/** Lines of the same item and colour become one, their quantities added (at most MAX_QUANTITY). */
function mergeLines(lines: readonly CartItem[]): CartItem[] {
  const merged: CartItem[] = [];
  for (const line of lines) {
    const existing = merged.find((c) => sameLine(c, line));
    if (existing) existing.quantity = Math.min(MAX_QUANTITY, existing.quantity + line.quantity);
    else merged.push({ ...line });
  }
  return merged;
}

/**
 * Adding an item already in the basket in that colour adds one to its quantity (the old product's defect, mended);
 * in another colour it is a line of its own.
 */
export function addToCart(
  cart: readonly CartItem[],
  item: Pick<CatalogueItem, 'id' | 'name' | 'normalPrice' | 'specialPrice'>,
  colour?: string,
): CartItem[] {
  const ref = { id: item.id, ...(colour ? { colour } : {}) };
  if (cart.some((c) => sameLine(c, ref)))
    return cart.map((c) => (sameLine(c, ref) ? { ...c, quantity: Math.min(MAX_QUANTITY, c.quantity + 1) } : c));
  return [
    ...cart,
    { id: item.id, name: item.name, price: item.normalPrice, specialPrice: item.specialPrice, ...(colour ? { colour } : {}), quantity: 1 },
  ];
}

/** One less, never below 1. */
export const decreaseInCart = (cart: readonly CartItem[], line: CartLineRef): CartItem[] =>
  cart.map((c) => (sameLine(c, line) ? { ...c, quantity: Math.max(1, c.quantity - 1) } : c));

export const removeFromCart = (cart: readonly CartItem[], line: CartLineRef): CartItem[] => cart.filter((c) => !sameLine(c, line));

/** The line in another colour (joining a line of that colour already there). */
export const recolourInCart = (cart: readonly CartItem[], line: CartLineRef, colour: string): CartItem[] =>
  mergeLines(cart.map((c) => (sameLine(c, line) ? { ...c, colour } : c)));

/**
 * Lines kept from before colours were chosen get their item's first colour (the colour such an order always had);
 * the same basket when nothing needed one.
 */
export function withDefaultColours(
  cart: readonly CartItem[],
  items: ReadonlyArray<Pick<CatalogueItem, 'id' | 'colors'>>,
): readonly CartItem[] {
  if (cart.every((c) => c.colour)) return cart;
  return mergeLines(
    cart.map((c) => {
      const first = items.find((i) => i.id === c.id)?.colors[0];
      return c.colour || !first ? c : { ...c, colour: first };
    }),
  );
}

/** The sum of each line's price times its quantity, at the price the buyer pays. */
export const cartTotal = (cart: readonly CartItem[]): number =>
  cart.reduce((sum, c) => sum + unitPrice({ normalPrice: c.price, specialPrice: c.specialPrice }) * c.quantity, 0);
