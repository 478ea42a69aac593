import { CATALOGUE_DATA_ELEMENT_ID, PRERENDERED_ATTRIBUTE } from './modules/site/utils/prerendered';
import { shareEarlySession } from './modules/session/utils/early-session';
import './styles.css';

/**
 * The only script a marketing page loads at first (a few kB): the gateway sends those pages rendered, with their
 * links working as plain links, so the app (React, the router, the forms: about 190 kB gzip) is fetched only
 * when it is needed:
 * - at once on the pages the gateway does not render (the dashboard, sign-in, the basket, ...);
 * - at once when the visitor is signed in or has something in the basket (the header shows Sign Out, Dashboard
 *   and "Basket (n)", which only the app draws);
 * - otherwise when a pointer comes over a button or form field, or on its first press (touch, keyboard focus):
 *   the app then hydrates the page in place, and a click or a form submission made before it was ready is handed
 *   to it afterwards.
 * Until then this script shows what a signed-out visitor sees (Sign In, REGISTER TODAY) once GET /api/session
 * says the visitor is signed out.
 */
const root = document.getElementById('root');
const prerendered = root?.hasAttribute(PRERENDERED_ATTRIBUTE) ?? false;
const INTERACTIVE = 'button, input, select, textarea, label, form';
const CART_STORAGE_KEY = 'cart'; // the contracts' CART_STORAGE_KEY (not imported: the contracts would come along)

let started: Promise<void> | null = null;
let ready = false;
let pending: (() => void) | null = null;

function start(): Promise<void> {
  if (started) return started;
  started = import('./main-app').then(async ({ startApp }) => {
    await startApp(prerendered);
    ready = true;
    document.documentElement.dataset['app'] = 'ready'; // for the browser tests: the app has hydrated the page
    // The menu opened here before the app was ready: the app opens it too (its state starts closed).
    const toggle = document.querySelector<HTMLElement>('[data-menu-toggle]');
    if (toggle?.getAttribute('aria-expanded') === 'true') toggle.click();
    const replay = pending;
    pending = null;
    replay?.();
  });
  // When the app could not be fetched (the connection dropped), the next press tries again.
  started.catch((error: unknown) => {
    console.error('The app could not be loaded.', error);
    started = null;
  });
  return started;
}

function basketHoldsSomething(): boolean {
  try {
    const raw = localStorage.getItem(CART_STORAGE_KEY);
    return raw !== null && raw !== '[]' && raw !== '';
  } catch {
    return false;
  }
}

/** What a signed-out visitor sees (Sign In, REGISTER TODAY), hidden in the rendered page while the session loads. */
function showSignedOut(): void {
  if (ready) return;
  for (const element of document.querySelectorAll('[data-signed-out][hidden]')) element.removeAttribute('hidden');
}

if (!prerendered || basketHoldsSomething() || document.getElementById(CATALOGUE_DATA_ELEMENT_ID) === null) {
  void start();
} else {
  const onIntent = (event: Event) => {
    if (event.target instanceof Element && event.target.closest(INTERACTIVE)) void start();
  };
  for (const type of ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown']) {
    document.addEventListener(type, onIntent, { capture: true, passive: true });
  }
  // The header's Menu toggle works at once (on a phone it is the way to the other pages); the app takes over.
  const setMenu = (toggle: Element, open: boolean) => {
    toggle.setAttribute('aria-expanded', String(open));
    document.getElementById(toggle.getAttribute('aria-controls') ?? '')?.classList.toggle('site-nav__links--open', open);
  };
  document.addEventListener(
    'keydown',
    (event) => {
      const toggle = document.querySelector<HTMLElement>('[data-menu-toggle]');
      if (ready || event.key !== 'Escape' || toggle?.getAttribute('aria-expanded') !== 'true') return;
      setMenu(toggle, false);
      toggle.focus();
    },
    { capture: true },
  );
  // A click or a submission that arrives before the app is ready waits for it (the app's handlers are not there yet).
  document.addEventListener(
    'click',
    (event) => {
      if (ready || !(event.target instanceof Element)) return;
      const toggle = event.target.closest('[data-menu-toggle]');
      if (toggle) {
        event.preventDefault();
        event.stopPropagation();
        setMenu(toggle, toggle.getAttribute('aria-expanded') !== 'true');
        void start();
        return;
      }
      const control = event.target.closest('button, input[type="submit"], input[type="checkbox"], input[type="radio"]');
      if (!control || !(control instanceof HTMLElement)) return;
      event.preventDefault();
      event.stopPropagation();
      pending = () => control.click();
      void start();
    },
    { capture: true },
  );
  document.addEventListener(
    'submit',
    (event) => {
      if (ready || !(event.target instanceof HTMLFormElement)) return;
      const form = event.target;
      const submitter = event.submitter;
      event.preventDefault();
      event.stopPropagation();
      pending = () => form.requestSubmit(submitter);
      void start();
    },
    { capture: true },
  );
  const session = fetch('/api/session', { credentials: 'same-origin', headers: { accept: 'application/json' } }).then((response) =>
    response.ok ? (response.json() as Promise<{ user: unknown }>) : null,
  );
  // The app, when it starts, takes this answer instead of asking again.
  shareEarlySession(session);
  void session
    .then((session) => {
      if (session?.user) void start();
      else showSignedOut();
    })
    .catch(showSignedOut);
}
