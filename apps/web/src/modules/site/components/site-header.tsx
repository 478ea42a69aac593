import { WebRoutes } from '@digicard/contracts';
import { Container, FormAlert } from '@digicard/ui';
import { useRef, useState, type KeyboardEvent } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { useSession } from '../../session/hooks/use-session';
import { SIGN_OUT_FAILED_MESSAGE } from '../../session/utils/session-actions';
import { CartLink } from '../../shop/components/cart-link';
import { BrandLogo } from './brand-logo';

const NAV_ID = 'site-nav-links';

const navLinks = [
  { to: WebRoutes.pricing, label: 'Packages' },
  { to: WebRoutes.accessories, label: 'Accessories' },
  { to: WebRoutes.contact, label: 'Contact' },
] as const;

const signedInLinks = [{ to: WebRoutes.dashboard, label: 'Dashboard' }] as const;

/**
 * Logo, page links (plus Dashboard when signed in), "Basket (n)" while the basket holds something, and Sign In, or
 * Sign Out when signed in (neither while the session loads). Sign Out ends the session on the server, forgets local profile data and goes home.
 * On screens up to 768 px wide the page links sit behind a "Menu" toggle; the menu closes when the page changes
 * (it is open only for the path it was opened on) and on Escape.
 */
export function SiteHeader() {
  const { pathname } = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const toggleRef = useRef<HTMLButtonElement>(null);
  const navigate = useNavigate();
  const { status, signOut } = useSession();
  const [signingOut, setSigningOut] = useState(false);
  const [signOutFailed, setSignOutFailed] = useState(false);
  const links = status === 'signed-in' ? [...navLinks, ...signedInLinks] : navLinks;

  async function onSignOut() {
    setSigningOut(true);
    setSignOutFailed(false);
    const signedOut = await signOut();
    setSigningOut(false);
    if (signedOut) void navigate(WebRoutes.home);
    else setSignOutFailed(true);
  }

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
            data-menu-toggle=""
            onClick={() => setOpenOn(open ? null : pathname)}
          >
            Menu
          </button>
          <ul id={NAV_ID} className={open ? 'site-nav__links site-nav__links--open' : 'site-nav__links'}>
            {links.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} className="site-nav__link">
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        {status === 'signed-in' ? (
          <button type="button" className="site-header__sign-in" disabled={signingOut} onClick={() => void onSignOut()}>
            Sign Out
          </button>
        ) : null}
        {status === 'signed-in' ? null : (
          // Present but hidden while the session loads: on a page rendered by the server, the first-load script
          // (boot.ts) shows it as soon as it knows the visitor is signed out, before the app itself has loaded.
          <Link to={WebRoutes.login} className="site-header__sign-in" hidden={status === 'loading'} data-signed-out="">
            Sign In
          </Link>
        )}
        <CartLink />
      </Container>
      {signOutFailed && status === 'signed-in' ? (
        <Container>
          <FormAlert className="site-header__alert">{SIGN_OUT_FAILED_MESSAGE}</FormAlert>
        </Container>
      ) : null}
    </header>
  );
}
