import { specialPath, type CatalogueItem } from '@digicard/contracts';
import { specialIncludes } from '@digicard/domain';
import { Link } from 'react-router';
import { useCatalogue } from '../../shop/hooks/use-catalogue';
import { itemsOfKind } from '../../shop/utils/catalogue';
import { ItemPrice, NORMAL_PRICE_FOOTNOTE } from '../../shop/components/item-price';
import { materialOf, SPECIALS, type SpecialMaterial } from '../specials';

export const SPECIALS_FOOTNOTE = `${NORMAL_PRICE_FOOTNOTE} Prices exclude the monthly membership fees.`;

interface Tile {
  readonly id: string;
  readonly name: string;
  readonly material: SpecialMaterial;
  readonly description: string;
  readonly item: CatalogueItem | null;
}

/**
 * One square per special; the whole square is clickable through its heading link. With the catalogue: its
 * specials, with the special price and the struck-through normal price (and the footnote for the asterisk).
 * While it loads, or when it cannot be read: the three known specials, names and links only.
 */
export function SpecialsGrid({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  const catalogue = useCatalogue();
  const tiles = tilesFor(catalogue.status === 'loaded' ? itemsOfKind(catalogue.items, 'special') : []);
  const withPrices = tiles.some((tile) => tile.item !== null);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <>
      <ul className="specials-grid">
        {tiles.map((tile) => (
          <li key={tile.id} className={`special-tile special-tile--${tile.material}`}>
            <div className="special-tile__card" aria-hidden="true">
              <svg className="special-tile__nfc" viewBox="0 0 24 24" width="24" height="24" focusable="false">
                <path
                  d="M7 8.5a5 5 0 0 1 0 7M11 6a9 9 0 0 1 0 12M15 3.5a13 13 0 0 1 0 17"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                />
              </svg>
            </div>
            <Heading className="special-tile__name">
              <Link to={specialPath(tile.id)} className="special-tile__link">
                {tile.name}
              </Link>
            </Heading>
            {tile.item ? <ItemPrice item={tile.item} className="special-tile__price" /> : null}
            <p className="special-tile__description">{tile.description}</p>
            {tile.item ? <p className="special-tile__description">{specialIncludes(tile.item)}</p> : null}
            <p className="special-tile__more" aria-hidden="true">
              View special →
            </p>
          </li>
        ))}
      </ul>
      {withPrices ? <p className="price-footnote">{SPECIALS_FOOTNOTE}</p> : null}
    </>
  );
}

function tilesFor(items: readonly CatalogueItem[]): Tile[] {
  if (items.length === 0) return SPECIALS.map((special) => ({ ...special, item: null }));
  return items.map((item) => {
    const known = SPECIALS.find((special) => special.id === item.id);
    return {
      id: item.id,
      name: item.name,
      material: known?.material ?? materialOf(item.material),
      description: known?.description ?? item.heading,
      item,
    };
  });
}
