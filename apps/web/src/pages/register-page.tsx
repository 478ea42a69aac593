import { Container } from '@digicard/ui';
import { RegisterForm } from '../modules/accounts/components/register-form';
import { GuestOnly } from '../modules/session/components/session-gates';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';
import { useSiteConfig } from '../modules/site/hooks/use-site-config';

/** /register: a signed-in user goes to the dashboard instead. */
export function RegisterPage() {
  usePageMeta('Register', 'Create your free digital business profile: contact details, QR code and one-tap save to contacts.');
  const { brandName } = useSiteConfig();
  return (
    <GuestOnly>
      <Container className="page account-page">
        <h1 id="register-title" className="page__title">
          Register
        </h1>
        <p className="page__lead">Create your free {brandName} profile. You can upgrade your package later.</p>
        <RegisterForm labelledBy="register-title" />
      </Container>
    </GuestOnly>
  );
}
