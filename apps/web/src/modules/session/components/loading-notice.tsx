import { Container } from '@digicard/ui';

/** Shown while the session loads, in place of a page that depends on it (spec: 'Loading...'). */
export function LoadingNotice() {
  return (
    <Container className="page">
      <p className="loading-notice" role="status">
        Loading...
      </p>
    </Container>
  );
}
