import { WebRoutes } from '@digicard/contracts';
import { Container } from '@digicard/ui';
import { Link } from 'react-router';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';

/** /cancel: where the payment provider sends the buyer back after cancelling the payment. */
export function CancelPage() {
  usePageMeta('Payment cancelled', 'Your payment was cancelled and nothing was charged. Your basket is still here.');
  return (
    <Container className="page narrow-page">
      <h1 className="page__title">Your payment was cancelled.</h1>
      <p className="page__lead">Nothing was charged. Your basket is still here.</p>
      <p className="page__actions">
        <Link to={WebRoutes.cart} className="button-link">
          Back to your basket
        </Link>
      </p>
    </Container>
  );
}
