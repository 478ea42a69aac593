import { WebRoutes } from '@digicard/contracts';
import { Container } from '@digicard/ui';
import { Link } from 'react-router';
import { CallBackForm } from '../../enquiries/components/call-back-form';
import { useSiteConfig } from '../hooks/use-site-config';

export function SiteFooter() {
  const { brandName } = useSiteConfig();
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <Container>
        <CallBackForm />
        <div className="site-footer__legal">
          <Link to={WebRoutes.terms} className="site-footer__link">
            Terms and Conditions
          </Link>
          <p className="site-footer__copyright">{`© ${year} ${brandName}. All Rights Reserved.`}</p>
        </div>
      </Container>
    </footer>
  );
}
