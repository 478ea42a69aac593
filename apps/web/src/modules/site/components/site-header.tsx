import { WebRoutes } from '@digicard/contracts';
import { Container } from '@digicard/ui';
import { useRef, useState, type KeyboardEvent } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { BrandLogo } from './brand-logo';

const NAV_ID = 'site-nav-links';

const navLinks = [
  { to: WebRoutes.pricing, label: 'Packages' },
  { to: WebRoutes.accessories, label: 'Accessories' },
  { to: WebRoutes.contact, label: 'Contact' },
] as const;

/**
 * Logo, page links and Sign In. On screens up to 768 px wide the page links sit behind a "Menu" toggle; the menu
 * closes when the page changes (it is open only for the path it was opened on) and on Escape.
 */
export function SiteHeader() {
  const { pathname } = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const toggleRef = useRef<HTMLButtonElement>(null);

  function onNavKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key === 'Escape' && open) {
      setOpenOn(null);
      toggleRef.current?.focus();
    }
  }

  return (
    <header className="site-header">
      <Container className="site-header__bar">
        <BrandLogo />
        <nav className="site-nav" aria-label="Main" onKeyDown={onNavKeyDown}>
          <button
            ref={toggleRef}
            type="button"
            className="site-nav__toggle"
            aria-expanded={open}
            aria-controls={NAV_ID}
            onClick={() => setOpenOn(open ? null : pathname)}
          >
            Menu
          </button>
          <ul id={NAV_ID} className={open ? 'site-nav__links site-nav__links--open' : 'site-nav__links'}>
            {navLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} className="site-nav__link">
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <Link to={WebRoutes.login} className="site-header__sign-in">
          Sign In
        </Link>
      </Container>
    </header>
  );
}
