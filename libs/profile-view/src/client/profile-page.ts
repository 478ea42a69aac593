// The public profile page's only script (no React on that page): opens and closes the panels and sends the three
// forms as JSON. Bundled by build-client.mjs to dist/client/profile-page.js (IIFE, ES2019, under 4 kB).
import type { ApiError, LeadSubmission, SessionResponse } from '@digicard/contracts';
import type { ProfilePageData } from '../render-page.js';

const FALLBACK = 'We could not send your details. Please try again in a minute.';

const readData = (): Partial<ProfilePageData> => {
  try {
    return JSON.parse(document.getElementById('profile-data')?.textContent ?? '{}') as Partial<ProfilePageData>;
  } catch {
    return {};
  }
};
const data = readData();

// ── panels ──────────────────────────────────────────────────────────────────────────────────────────────────────
const setOpen = (button: Element, open: boolean): void => {
  button.setAttribute('aria-expanded', String(open));
  const panel = document.getElementById(button.getAttribute('aria-controls') ?? '');
  if (panel) panel.hidden = !open;
};

document.querySelectorAll<HTMLButtonElement>('[data-pv-toggle]').forEach((button) => {
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    const group = button.getAttribute('data-pv-group');
    if (open && group) {
      document.querySelectorAll(`[data-pv-group="${group}"]`).forEach((other) => {
        if (other !== button) setOpen(other, false);
      });
    }
    setOpen(button, open);
  });
});

// ── forms ───────────────────────────────────────────────────────────────────────────────────────────────────────
type Control = HTMLInputElement | HTMLTextAreaElement;

const controls = (form: HTMLFormElement): Control[] =>
  Array.from(form.querySelectorAll<Control>('.pv-field input[name], .pv-field textarea[name]'));

const valueOf = (form: HTMLFormElement, name: string): string => {
  const control = form.elements.namedItem(name);
  return control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement ? control.value : '';
};

const alertOf = (form: HTMLFormElement): HTMLElement => {
  let alert = form.querySelector<HTMLElement>('.pv-alert');
  if (!alert) {
    alert = document.createElement('p');
    alert.className = 'pv-alert';
    alert.setAttribute('role', 'alert');
    form.insertBefore(alert, form.querySelector('.pv-send'));
  }
  return alert;
};

const clearErrors = (form: HTMLFormElement): void => {
  form.querySelectorAll('.pv-error').forEach((error) => error.remove());
  for (const control of controls(form)) {
    control.removeAttribute('aria-invalid');
    control.removeAttribute('aria-describedby');
  }
  const alert = form.querySelector('.pv-alert');
  if (alert) alert.textContent = '';
};

/** Each field's first message beside it; focus on the first. False when no shown field had a message. */
const showFieldErrors = (form: HTMLFormElement, fieldErrors: ApiError['fieldErrors']): boolean => {
  let first: Control | undefined;
  for (const control of controls(form)) {
    const message = fieldErrors?.[control.name]?.[0];
    if (!message) continue;
    const error = document.createElement('p');
    error.className = 'pv-error';
    error.id = `${control.id}-error`;
    error.textContent = message;
    control.parentElement?.appendChild(error);
    control.setAttribute('aria-invalid', 'true');
    control.setAttribute('aria-describedby', error.id);
    first ??= control;
  }
  first?.focus();
  return first !== undefined;
};

const post = (url: string, body: string, csrf?: string): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    headers: csrf ? { 'content-type': 'application/json', 'x-csrf-token': csrf } : { 'content-type': 'application/json' },
    credentials: 'same-origin',
    body,
  });

/** The signed-in owner's CSRF token (an owner trying the forms on their own page), if there is a session. */
const csrfToken = async (): Promise<string | undefined> => {
  try {
    const response = await fetch('/api/session', { credentials: 'same-origin', headers: { accept: 'application/json' } });
    const session = (await response.json()) as Partial<SessionResponse>;
    return response.ok && typeof session.csrfToken === 'string' && session.csrfToken ? session.csrfToken : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Each form's idempotency key: made at its first send and sent again with every retry (a 503, a lost answer), so the
 * profile stores the lead once and answers a repeat with the first result. A sent form is replaced by its thanks.
 */
const submissionKeys = new WeakMap<HTMLFormElement, string>();
const submissionKeyOf = (form: HTMLFormElement): string => {
  let key = submissionKeys.get(form);
  if (!key) {
    key = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
    submissionKeys.set(form, key);
  }
  return key;
};

const send = async (form: HTMLFormElement): Promise<void> => {
  const button = form.querySelector<HTMLButtonElement>('.pv-send');
  if (!button || button.disabled) return;
  const label = button.textContent;
  const kind = (form.getAttribute('data-lead-kind') ?? 'lead') as LeadSubmission['kind'];
  const consent = form.elements.namedItem('consent');
  const sendCard = form.elements.namedItem('sendCard');
  const body = JSON.stringify({
    kind,
    firstName: valueOf(form, 'firstName'),
    lastName: valueOf(form, 'lastName'),
    email: valueOf(form, 'email'),
    phone: valueOf(form, 'phone'),
    message: valueOf(form, 'message'),
    consent: consent instanceof HTMLInputElement && consent.checked,
    // Exchange Contact only: whether the visitor wants the owner's card by email.
    ...(sendCard instanceof HTMLInputElement ? { sendCard: sendCard.checked } : {}),
    website: valueOf(form, 'website'),
    idempotencyKey: submissionKeyOf(form),
  });
  const url = data.leadsUrl || form.action;
  clearErrors(form);
  button.disabled = true;
  button.textContent = 'Sending...';
  try {
    let response = await post(url, body);
    if (response.status === 403) {
      const token = await csrfToken();
      if (token) response = await post(url, body, token);
    }
    if (response.ok) {
      const thanks = document.createElement('p');
      thanks.className = 'pv-status';
      thanks.setAttribute('role', 'status');
      thanks.tabIndex = -1;
      thanks.textContent = data.thanks?.[kind] ?? 'Thank you!';
      form.replaceWith(thanks);
      thanks.focus();
      return;
    }
    const error = (await response.json().catch(() => ({}))) as Partial<ApiError>;
    if (response.status === 400 && showFieldErrors(form, error.fieldErrors)) return;
    alertOf(form).textContent = typeof error.message === 'string' && error.message ? error.message : FALLBACK;
  } catch {
    alertOf(form).textContent = FALLBACK;
  } finally {
    button.disabled = false;
    button.textContent = label;
  }
};

document.querySelectorAll<HTMLFormElement>('form[data-lead-kind]').forEach((form) => {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void send(form);
  });
});

// ── clicks and sharing ──────────────────────────────────────────────────────────────────────────────────────────
// Each click on a button or link is one beacon (never delays leaving the page); the gateway counts them in batches.
document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('[data-pv-click]') : null;
  const name = target?.getAttribute('data-pv-click');
  if (name && data.clicksUrl && navigator.sendBeacon) {
    navigator.sendBeacon(data.clicksUrl, JSON.stringify({ target: name }));
  }
});

// The browser's share sheet, where it has one.
document.querySelectorAll<HTMLButtonElement>('[data-pv-share]').forEach((button) => {
  if (!navigator.share) return;
  button.hidden = false;
  button.addEventListener('click', () => {
    navigator
      .share({ title: button.getAttribute('data-pv-title') ?? '', url: button.getAttribute('data-pv-share') ?? '' })
      .catch(() => undefined);
  });
});
