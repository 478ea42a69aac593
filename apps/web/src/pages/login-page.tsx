import { Container } from '@digicard/ui';
import { LoginForm } from '../modules/accounts/components/login-form';
import { GuestOnly } from '../modules/session/components/session-gates';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';

/** /login: a signed-in user goes to the dashboard instead. */
export function LoginPage() {
  usePageMeta('Log In', 'Log in to edit your digital business profile.');
  return (
    <GuestOnly>
      <Container className="page account-page">
        <h1 id="login-title" className="page__title">
          Log In
        </h1>
        <LoginForm labelledBy="login-title" />
      </Container>
    </GuestOnly>
  );
}
