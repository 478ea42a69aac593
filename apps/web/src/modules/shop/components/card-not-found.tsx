import { WebRoutes } from '@digicard/contracts';
import { Container } from '@digicard/ui';
import { Link } from 'react-router';

export const CARD_NOT_FOUND = 'Card not found';

/** An accessory or special id the catalogue does not have (the gateway answers such a page with 404). */
export function CardNotFound() {
  return (
    <Container className="page not-found-page">
      <h1 className="page__title">{CARD_NOT_FOUND}</h1>
      <p className="page__lead">We do not sell this card, or it is no longer in our shop.</p>
      <p className="page__actions">
        <Link to={WebRoutes.accessories} className="button-link">
          See our NFC cards
        </Link>
        <Link to={WebRoutes.pricing} className="button-link button-link--secondary">
          See the specials
        </Link>
      </p>
    </Container>
  );
}
