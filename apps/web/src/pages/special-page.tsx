import { WebRoutes, type CatalogueItem } from '@digicard/contracts';
import { specialIncludes } from '@digicard/domain';
import { Button, Container, notice } from '@digicard/ui';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { CatalogueItemPage } from '../modules/shop/components/catalogue-item-page';
import { ImageGallery } from '../modules/shop/components/image-gallery';
import { ItemPrice, NORMAL_PRICE_FOOTNOTE } from '../modules/shop/components/item-price';
import { MoreInfo } from '../modules/shop/components/more-info';
import { SpecList } from '../modules/shop/components/spec-list';
import { ColourPicker } from '../modules/shop/components/colour-picker';
import { cartStore } from '../modules/shop/utils/cart-store';

/** The spec's alert after "ADD TO CART", its grammar mended. */
export const SPECIAL_ADDED_ALERT = 'Your cards have been added to your basket.';
export const MEMBERSHIP_FEES_NOTE = 'The price does not include the monthly membership fees.';

/**
 * /specials/:id: the gallery, the special price beside the struck-through normal price, the details, and "ADD TO
 * CART" (anyone may): it adds the special to the basket, says so, and opens the special offer's sign-up and payment
 * (/registration).
 */
export function SpecialPage() {
  return (
    <CatalogueItemPage
      kind="special"
      sectionTitle="Specials"
      description={'NFC business card specials: a printed card at a special price, some with a year of DigiGold.'}
    >
      {(item) => <SpecialDetail item={item} />}
    </CatalogueItemPage>
  );
}

function SpecialDetail({ item }: { item: CatalogueItem }) {
  const navigate = useNavigate();
  const [colour, setColour] = useState(item.colors[0] ?? '');

  async function addToBasket() {
    cartStore.add(item, colour);
    await notice({ title: SPECIAL_ADDED_ALERT });
    void navigate(WebRoutes.registration);
  }

  return (
    <Container className="page item-page">
      <div className="item-page__layout">
        <ImageGallery images={item.images} />
        <div className="item-page__info">
          <h1 className="page__title item-page__title">{item.name}</h1>
          <p className="page__lead">{item.heading}</p>
          <ItemPrice item={item} className="item-page__price" />
          <p className="item-page__gold">{specialIncludes(item)}</p>
          <div className="item-page__actions">
            <ColourPicker colours={item.colors} value={colour} onChange={setColour} />
            <p className="item-page__add">
              <Button onClick={() => void addToBasket()}>ADD TO CART</Button>
            </p>
          </div>
          {item.specialPrice !== null ? <p className="item-page__note">{NORMAL_PRICE_FOOTNOTE}</p> : null}
          <p className="item-page__note">{MEMBERSHIP_FEES_NOTE}</p>
        </div>
      </div>
      <div className="item-page__details">
        <section aria-labelledby="details-title">
          <h2 id="details-title" className="item-page__subtitle">
            Details
          </h2>
          <SpecList
            specs={[
              { label: 'Dimensions', value: item.dimensions },
              { label: 'Weight', value: item.weight },
              { label: 'Material', value: item.material },
              { label: 'Warranty', value: item.years },
              { label: 'Branding', value: item.printing },
            ]}
          />
        </section>
        <MoreInfo html={item.moreInfo} />
      </div>
    </Container>
  );
}
