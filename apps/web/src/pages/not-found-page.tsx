import { WebRoutes } from '@digicard/contracts';
import { Container } from '@digicard/ui';
import { Link } from 'react-router';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';

export function NotFoundPage() {
  usePageMeta('Page not found', 'The page you are looking for does not exist or has moved.');
  return (
    <Container className="page not-found-page">
      <h1 className="page__title">Oops!!! Page not found.</h1>
      <p className="page__lead">The page you are looking for does not exist or has moved.</p>
      <p>
        <Link to={WebRoutes.home} className="button-link">
          Go to the home page
        </Link>
      </p>
    </Container>
  );
}
