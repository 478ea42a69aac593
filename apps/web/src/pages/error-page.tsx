import { WebRoutes } from '@digicard/contracts';
import { Container } from '@digicard/ui';
import { useDocumentTitle } from '../modules/site/hooks/use-document-title';

/** Shown when a page throws while rendering; a full reload starts the app afresh. */
export function ErrorPage() {
  useDocumentTitle('Something went wrong');
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
