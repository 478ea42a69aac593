// Test support for the unit lane's DOM tests (happy-dom): a fake gateway behind `fetch`, a signed-in session, and a
// React root with its own QueryClient. Never imported by the app.
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { QueryClient } from '@tanstack/react-query';
import { newQueryClient, QueryProvider } from '../modules/api/query-client';
import { sessionStore } from '../modules/session/utils/session-store';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly search: URLSearchParams;
  readonly body: unknown;
  readonly headers: Headers;
}
export type FakeAnswer = { status: number; body?: unknown } | 'network-failure';
type Handler = (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

/**
 * The gateway as a table `'GET /api/team/reps' → answer` in place of `fetch`; `calls` lists what was asked, in order
 * (`'GET /api/team/reps'`). A request no entry answers gets a 404. 'network-failure' rejects as a lost connection.
 */
export function fakeGateway(routes: Record<string, Handler>) {
  const calls: string[] = [];
  const requests: FakeRequest[] = [];
  // The helper calls fetch(path, init): the path is a string.
  const fetch = async (input: string, init?: RequestInit): Promise<Response> => {
    const url = new URL(input, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const text = typeof init?.body === 'string' ? init.body : null;
    const request: FakeRequest = {
      method,
      path: url.pathname,
      search: url.searchParams,
      body: text === null ? undefined : (JSON.parse(text) as unknown),
      headers: new Headers(init?.headers),
    };
    calls.push(`${method} ${url.pathname}`);
    requests.push(request);
    const handler = routes[`${method} ${url.pathname}`];
    const answer: FakeAnswer = handler
      ? await handler(request)
      : { status: 404, body: { statusCode: 404, code: 'NOT_FOUND', message: 'Not found' } };
    if (answer === 'network-failure') throw new TypeError('Failed to fetch');
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  };
  globalThis.fetch = fetch as unknown as typeof globalThis.fetch;
  return { calls, requests, count: (call: string) => calls.filter((c) => c === call).length };
}

export const OWNER_ID = '0b7c3f4e-8a51-4b6f-9a7e-2d1c5e6f7a80';

/** A signed-in owner with a CSRF token, as GET /api/session answers (changes wait for the first answer). */
export function signIn(role: 'user' | 'teamLeader' | 'staff' = 'user', id = OWNER_ID): void {
  sessionStore.setFromResponse({
    user: { id, username: 'thandi', email: 'thandi@example.co.za', firstName: 'Thandi', lastName: 'Mahlangu', role, isVerified: true },
    csrfToken: 'csrf-token-1',
  });
}

export interface Mounted {
  readonly container: HTMLElement;
  readonly client: QueryClient;
  /** Unmounts; the client's cache is emptied unless kept (to mount the section again over it). */
  unmount(keepCache?: boolean): void;
}

/** Renders `ui` into the document with a QueryClient of its own (the app's defaults). */
export function mount(ui: ReactNode, client: QueryClient = newQueryClient()): Mounted {
  const container = document.createElement('div');
  document.body.append(container);
  let root!: Root;
  act(() => {
    root = createRoot(container);
    root.render(<QueryProvider client={client}>{ui}</QueryProvider>);
  });
  return {
    container,
    client,
    unmount(keepCache = false) {
      act(() => root.unmount());
      container.remove();
      if (!keepCache) client.clear();
    },
  };
}

/** An answer the test gives when it chooses (`release`), to see what shows meanwhile. */
export function deferred<T>() {
  let release!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

/** Waits (letting React and the promises run) until `check` returns something other than null/undefined/false. */
export async function waitFor<T>(what: string, check: () => T | null | undefined | false, timeoutMs = 2000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = check();
    if (found !== null && found !== undefined && found !== false) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}. The page says: ${document.body.textContent ?? ''}`);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
  }
}

/** The element whose text is `text` exactly (buttons, messages), or null. */
export function byText<E extends Element = HTMLElement>(root: ParentNode, text: string, selector = '*'): E | null {
  return [...root.querySelectorAll<E>(selector)].find((element) => element.textContent === text && element.children.length === 0) ?? null;
}

/** The input labelled `label` (its <label>'s text, as the TextField renders it). */
export function field(root: ParentNode, label: string): HTMLInputElement {
  const labelElement = [...root.querySelectorAll('label')].find((l) => l.textContent?.trim() === label);
  const input = labelElement ? document.getElementById(labelElement.htmlFor) : null;
  if (!(input instanceof HTMLInputElement)) throw new Error(`No field labelled ${label}.`);
  return input;
}

/** Types into an input as a person does (the value, then the input event React and react-hook-form listen to). */
export function type(input: HTMLInputElement, value: string): void {
  act(() => {
    // The prototype's setter: React tracks the value an assignment to the element itself would set.
    Reflect.set(HTMLInputElement.prototype, 'value', value, input);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export async function click(element: Element | null): Promise<void> {
  if (!element) throw new Error('Nothing to click.');
  await act(async () => {
    (element as HTMLElement).click();
    await Promise.resolve();
  });
}

/** The error text shown under a field (the TextField's `<id>-error`), or null. */
export function errorOf(input: HTMLInputElement): string | null {
  return document.getElementById(`${input.id}-error`)?.textContent ?? null;
}

/** The texts of the form-level alerts shown (FormAlert: role alert). */
export function alerts(root: ParentNode): string[] {
  return [...root.querySelectorAll('[role="alert"]')].map((element) => element.textContent ?? '').filter(Boolean);
}
