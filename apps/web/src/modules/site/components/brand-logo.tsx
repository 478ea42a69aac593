import { WebRoutes } from '@digicard/contracts';
import { Link } from 'react-router';
import { useSiteConfig } from '../hooks/use-site-config';

/** The brand name with a small card mark, linking home. Its accessible name is the brand name. */
export function BrandLogo() {
  const { brandName } = useSiteConfig();
  return (
    <Link to={WebRoutes.home} className="brand-logo">
      <svg className="brand-logo__mark" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
        <rect x="2" y="7" width="28" height="18" rx="3" fill="currentColor" />
        <rect x="6" y="12" width="10" height="2.5" rx="1" fill="#ffc94a" />
        <rect x="6" y="17" width="14" height="2" rx="1" fill="#fff" />
      </svg>
      <span className="brand-logo__name">{brandName}</span>
    </Link>
  );
}
