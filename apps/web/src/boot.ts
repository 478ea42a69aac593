import { CATALOGUE_DATA_ELEMENT_ID, PRERENDERED_ATTRIBUTE } from './modules/site/utils/prerendered';
import './styles.css';

/**
 * The only script a marketing page loads at first (a few kB): the gateway sends those pages rendered, with their
 * links working as plain links, so the app (React, the router, the forms: about 150 kB) is fetched only when it
 * is needed:
 * - at once on the pages the gateway does not render (the dashboard, sign-in, the basket, ...);
 * - at once when the visitor is signed in or has something in the basket (the header shows Sign Out, Dashboard
 *   and "Basket (n)", which only the app draws);
 * - otherwise on the first press of a button or form field (pointer, touch, keyboard focus): the app then hydrates
 *   the page in place, and a click or a form submission made before it was ready is handed to it afterwards.
 * Until then this script shows the Sign In link once GET /api/session says the visitor is signed out.
 */
const root = document.getElementById('root');
const prerendered = root?.hasAttribute(PRERENDERED_ATTRIBUTE) ?? false;
const INTERACTIVE = 'button, input, select, textarea, label, form';
const CART_STORAGE_KEY = 'cart'; // the contracts' CART_STORAGE_KEY (not imported: the contracts would come along)

let started: Promise<void> | null = null;
let ready = false;
let pending: (() => void) | null = null;

function start(): Promise<void> {
  started ??= import('./main-app').then(async ({ startApp }) => {
    await startApp(prerendered);
    ready = true;
    const replay = pending;
    pending = null;
    replay?.();
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

if (!prerendered || basketHoldsSomething() || document.getElementById(CATALOGUE_DATA_ELEMENT_ID) === null) {
  void start();
} else {
  const onIntent = (event: Event) => {
    if (event.target instanceof Element && event.target.closest(INTERACTIVE)) void start();
  };
  for (const type of ['pointerdown', 'touchstart', 'focusin', 'keydown']) {
    document.addEventListener(type, onIntent, { capture: true, passive: true });
  }
  // A click or a submission that arrives before the app is ready waits for it (the app's handlers are not there yet).
  document.addEventListener(
    'click',
    (event) => {
      if (ready || !(event.target instanceof Element)) return;
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
  void fetch('/api/session', { credentials: 'same-origin', headers: { accept: 'application/json' } })
    .then((response) => (response.ok ? (response.json() as Promise<{ user: unknown }>) : null))
    .then((session) => {
      if (session?.user) void start();
      else if (!ready) document.querySelector('[data-sign-in]')?.removeAttribute('hidden');
    })
    .catch(() => {
      if (!ready) document.querySelector('[data-sign-in]')?.removeAttribute('hidden');
    });
}
