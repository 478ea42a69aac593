import { WebRoutes, type CatalogueItem } from '@digicard/contracts';
import { Button, Container, Notice } from '@digicard/ui';
import { useState } from 'react';
import { Link } from 'react-router';
import { useSession } from '../modules/session/hooks/use-session';
import { CatalogueItemPage } from '../modules/shop/components/catalogue-item-page';
import { ColourPicker } from '../modules/shop/components/colour-picker';
import { ImageGallery } from '../modules/shop/components/image-gallery';
import { ItemPrice } from '../modules/shop/components/item-price';
import { MoreInfo } from '../modules/shop/components/more-info';
import { SpecList } from '../modules/shop/components/spec-list';
import { cartStore } from '../modules/shop/utils/cart-store';

export const ADDED_TO_BASKET_MESSAGE = 'Added to your basket.';

/** /accessories/:id: one NFC card. Signed in: "ADD TO CART"; signed out: "REGISTER TODAY". */
export function AccessoryPage() {
  return (
    <CatalogueItemPage
      kind="accessory"
      sectionTitle="Accessories"
      description={'NFC business cards that share your digital profile with one tap.'}
    >
      {(item) => <AccessoryDetail item={item} />}
    </CatalogueItemPage>
  );
}

function AccessoryDetail({ item }: { item: CatalogueItem }) {
  return (
    <Container className="page item-page">
      <div className="item-page__layout">
        <ImageGallery images={item.images} />
        <div className="item-page__info">
          <h1 className="page__title item-page__title">{item.name}</h1>
          <p className="page__lead">{item.heading}</p>
          <ItemPrice item={item} className="item-page__price" />
          <p className="item-page__note">The price does not include the monthly membership fees.</p>
          <AccessoryAction item={item} />
          {item.benefits.length > 0 ? (
            <ul className="item-page__benefits">
              {item.benefits.map((benefit) => (
                <li key={benefit}>{benefit}</li>
              ))}
            </ul>
          ) : null}
        </div>
      </div>
      <div className="item-page__details">
        <section aria-labelledby="specs-title">
          <h2 id="specs-title" className="item-page__subtitle">
            Specifications
          </h2>
          <SpecList
            specs={[
              { label: 'Dimensions', value: item.dimensions },
              { label: 'Weight', value: item.weight },
              { label: 'Material', value: item.material },
              { label: 'Colours', value: item.colors.join(', ') },
              { label: 'Operating temperature', value: item.temp },
              { label: 'Storage temperature', value: item.storeTemp },
              { label: 'Warranty/Life', value: item.years },
              { label: 'Read range', value: item.readRange },
              { label: 'Branding', value: item.printing },
            ]}
          />
        </section>
        <MoreInfo html={item.moreInfo} />
      </div>
    </Container>
  );
}

/** Cards are ordered from an account (the card opens its profile): "ADD TO CART" signed in, else "REGISTER TODAY". */
function AccessoryAction({ item }: { item: CatalogueItem }) {
  const { status } = useSession();
  const [added, setAdded] = useState<string | null>(null);
  const [colour, setColour] = useState(item.colors[0] ?? '');
  if (status !== 'signed-in') {
    // Hidden while the session loads; on a page rendered by the server, boot.ts shows it once it knows the
    // visitor is signed out, before the app has loaded.
    return (
      <div className="item-page__actions" hidden={status === 'loading'} data-signed-out="">
        <p className="item-page__hint">Your card opens your digital profile: create your free profile to order one.</p>
        <Link to={WebRoutes.register} className="button-link button-link--accent">
          REGISTER TODAY
        </Link>
      </div>
    );
  }
  return (
    <div className="item-page__actions">
      <ColourPicker colours={item.colors} value={colour} onChange={setColour} />
      <p className="item-page__add">
        <Button
          onClick={() => {
            cartStore.add(item, colour);
            setAdded(colour);
          }}
        >
          ADD TO CART
        </Button>
      </p>
      <div role="status" className="item-page__status">
        {added ? (
          <Notice tone="success" className="item-page__added">
            {`${ADDED_TO_BASKET_MESSAGE} (${added})`} <Link to={WebRoutes.cart}>View basket</Link>
          </Notice>
        ) : null}
      </div>
    </div>
  );
}
