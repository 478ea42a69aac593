import { accessoryPath, formatRand, unitPrice, type CatalogueItem } from '@digicard/contracts';
import { Container } from '@digicard/ui';
import { Link } from 'react-router';
import { CatalogueImage } from '../modules/shop/components/catalogue-image';
import { CatalogueStatus } from '../modules/shop/components/catalogue-status';
import { useCatalogue } from '../modules/shop/hooks/use-catalogue';
import { itemsOfKind } from '../modules/shop/utils/catalogue';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';
import { useSiteConfig } from '../modules/site/hooks/use-site-config';

const STEPS = [
  { title: 'Order your card', text: 'Choose PVC, bamboo or stainless steel and add it to your basket.' },
  {
    title: 'Approve your print proof',
    text: 'We email you a proof of the layout with your logo and details. Nothing is printed before you approve it.',
  },
  {
    title: 'We print and deliver it',
    text: 'Your card is printed or engraved, its chip is linked to your profile, and we deliver it to you.',
  },
  { title: 'Tap to share', text: 'Hold the card near a phone: your profile opens, ready to save to contacts.' },
] as const;

/** /accessories: what an NFC card does, the card collection with "Shop Now" links, and how ordering works. */
export function AccessoriesPage() {
  usePageMeta(
    'Accessories',
    'NFC business cards in PVC, bamboo and stainless steel: tap a phone and your digital profile opens, no app needed.',
  );
  const { brandName } = useSiteConfig();
  const catalogue = useCatalogue();
  return (
    <>
      <Container className="page accessories-page">
        <h1 className="page__title">Accessories</h1>
        <p className="page__lead">NFC business cards that share your digital profile with one tap.</p>
        <section className="accessories-page__intro" aria-labelledby="nfc-title">
          <div>
            <h2 id="nfc-title" className="section__title">
              What is an NFC business card?
            </h2>
            <p>
              An NFC business card carries a small chip. Tap the card on a phone and your {brandName} profile opens in the browser: no app
              to install, nothing to type.
            </p>
            <p>
              Most phones read NFC, including iPhone XR and newer and most Android phones. For a phone without NFC, the QR code printed on
              your card opens the same profile with the camera. Change your details on your profile and every card you have handed out shows
              them: the card never needs reprinting.
            </p>
          </div>
          <CatalogueImage
            className="accessories-page__art"
            src="/images/catalogue/card-tap.svg"
            alt="A card tapped on a phone opens the profile"
            priority
          />
        </section>
      </Container>

      <section className="section section--tinted" aria-labelledby="collection-title">
        <Container>
          <h2 id="collection-title" className="section__title">
            Our card collection
          </h2>
          <p className="section__lead">Printed or engraved with your logo and details. Prices exclude the monthly membership fees.</p>
          {catalogue.status === 'loaded' ? (
            <ul className="card-collection">
              {itemsOfKind(catalogue.items, 'accessory').map((item) => (
                <CollectionItem key={item.id} item={item} />
              ))}
            </ul>
          ) : (
            <CatalogueStatus state={catalogue} />
          )}
        </Container>
      </section>

      <section className="section" aria-labelledby="how-title">
        <Container>
          <h2 id="how-title" className="section__title">
            How it works
          </h2>
          <ol className="steps">
            {STEPS.map((step) => (
              <li key={step.title} className="steps__item">
                <h3 className="steps__title">{step.title}</h3>
                <p className="steps__text">{step.text}</p>
              </li>
            ))}
          </ol>
        </Container>
      </section>
    </>
  );
}

function CollectionItem({ item }: { item: CatalogueItem }) {
  const nameId = `collection-${item.id}`;
  const alt = item.images.find((image) => image.image === item.catImage)?.alt ?? item.name;
  return (
    <li className="collection-card">
      <CatalogueImage className="collection-card__image" src={item.catImage} alt={alt} />
      <h3 id={nameId} className="collection-card__name">
        {item.name}
      </h3>
      <p className="collection-card__price">{formatRand(unitPrice(item))}</p>
      <p className="collection-card__action">
        <Link to={accessoryPath(item.id)} className="button-link" aria-describedby={nameId}>
          Shop Now
        </Link>
      </p>
    </li>
  );
}
