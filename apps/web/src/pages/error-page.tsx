import { WebRoutes } from '@digicard/contracts';
import { Container } from '@digicard/ui';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';

/** Shown when a page throws while rendering; a full reload starts the app afresh. */
export function ErrorPage() {
  usePageMeta('Something went wrong', 'Something went wrong on this page. Please reload it or try again in a minute.');
  return (
    <Container className="page">
      <h1 className="page__title">Something went wrong.</h1>
      <p className="page__lead">Please reload the page, or try again in a minute.</p>
      <p>
        <a href={WebRoutes.home} className="button-link">
          Go to the home page
        </a>
      </p>
    </Container>
  );
}
