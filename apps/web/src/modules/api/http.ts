import { ApiErrorSchema, CSRF_HEADER, HttpRoutes, type ApiError, type HttpRoute } from '@digicard/contracts';
import type { z } from 'zod';
import { currentCsrfToken, sessionStore } from '../session/utils/session-store';

/**
 * The one way the web app calls the gateway's JSON API; every call is typed by its entry in `HttpRoutes`.
 * - `getJson`, `postJson`, `putJson`, `deleteJson` (with or without a body, as the route says); `postRaw` sends a file
 *   as the raw body (routes with `upload`, e.g. image uploads), with the file's own `Content-Type`.
 * - Cookies are HttpOnly and same-origin: every request sends `credentials: 'same-origin'`.
 * - Every state-changing request carries the CSRF token of the last session answer (`x-csrf-token`) when there is
 *   one; a change asked for while the first session answer is awaited (a link's page opening, say) waits for it
 *   (SessionProvider loads it on start).
 * - When the server refuses a change with 403, the session is read again (another tab may have signed in or out,
 *   or the session may have ended); if that brings a different token, the request is sent once more.
 */

type SuccessStatus = 200 | 201 | 202 | 204;
type Method = HttpRoute['method'];

type BodyRoute<M extends Method = Method> = HttpRoute & { readonly method: M; readonly body: z.ZodType };
type BodylessRoute<M extends Method> = HttpRoute & { readonly method: M; readonly body?: undefined };

/** The body the route takes, as the form holds it (the schema's input type). */
export type RequestBody<R extends BodyRoute> = z.input<R['body']>;

/** The parsed body of the route's success answer (undefined when it has none, e.g. 204). */
export type ResponseData<R extends HttpRoute> = R['responses'][keyof R['responses'] & SuccessStatus] extends {
  readonly schema: infer S extends z.ZodType;
}
  ? z.output<S>
  : undefined;

export type HttpResult<T> = { ok: true; status: number; data: T } | { ok: false; error: ApiError };

/** `statusCode` of the synthetic error returned when no answer arrived (offline, DNS, timeout). */
export const NETWORK_FAILURE_STATUS = 0;
export const NetworkErrorCode = 'NETWORK_ERROR';
export const UnexpectedResponseCode = 'UNEXPECTED_RESPONSE';
export const NETWORK_FAILURE_MESSAGE = 'We could not reach the server. Please check your connection and try again.';

const REQUEST_TIMEOUT_MS = 20_000;
/** A 2 MB photo over a slow phone connection takes longer than a JSON request. */
const UPLOAD_TIMEOUT_MS = 90_000;

type UploadRoute = HttpRoute & { readonly method: 'post'; readonly upload: string };

/** A raw-body request: the file, and the route's path with its `:params` filled in. */
interface Payload {
  readonly path: string;
  readonly raw?: Blob;
}

export function getJson<R extends BodylessRoute<'get'>>(route: R): Promise<HttpResult<ResponseData<R>>> {
  return send(route, undefined);
}

/** A GET with a query string (`?from=...&to=...`); empty values are left out. */
export function getJsonWithQuery<R extends BodylessRoute<'get'>>(
  route: R,
  query: Readonly<Record<string, string>>,
): Promise<HttpResult<ResponseData<R>>> {
  const search = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== '')).toString();
  return send(route, undefined, false, { path: search ? `${route.path}?${search}` : route.path });
}

/** A page of a list route (`?cursor=`, the last page's `nextCursor`); without a cursor its first page. */
export function getPage<R extends BodylessRoute<'get'>>(route: R, cursor: string | null): Promise<HttpResult<ResponseData<R>>> {
  return getJsonWithQuery(route, { cursor: cursor ?? '' });
}

/** A page of a list a POST answers (a search: its body says what, `?cursor=` which page); without a cursor its first. */
export function postPage<R extends BodyRoute<'post'>>(
  route: R,
  body: RequestBody<R>,
  cursor: string | null,
): Promise<HttpResult<ResponseData<R>>> {
  return send(route, body, false, { path: cursor ? `${route.path}?${new URLSearchParams({ cursor }).toString()}` : route.path });
}

export function postJson<R extends BodyRoute<'post'>>(route: R, body: RequestBody<R>): Promise<HttpResult<ResponseData<R>>>;
export function postJson<R extends BodylessRoute<'post'>>(route: R): Promise<HttpResult<ResponseData<R>>>;
export function postJson(route: HttpRoute, body?: unknown): Promise<HttpResult<unknown>> {
  return send(route, body);
}

export function putJson<R extends BodyRoute<'put'>>(route: R, body: RequestBody<R>): Promise<HttpResult<ResponseData<R>>> {
  return send(route, body);
}

export function deleteJson<R extends BodylessRoute<'delete'>>(route: R): Promise<HttpResult<ResponseData<R>>>;
export function deleteJson<R extends BodyRoute<'delete'>>(route: R, body: RequestBody<R>): Promise<HttpResult<ResponseData<R>>>;
export function deleteJson(route: HttpRoute, body?: unknown): Promise<HttpResult<unknown>> {
  return send(route, body);
}

/**
 * POSTs a file as the raw request body with its own `Content-Type` (CSRF and the 403 retry as for JSON).
 * `params` fill the route's `:name` placeholders, e.g. `{ purpose: 'gallery' }` for `/api/profile/images/:purpose`.
 */
export function postRaw<R extends UploadRoute>(
  route: R,
  params: Readonly<Record<string, string>>,
  file: Blob,
): Promise<HttpResult<ResponseData<R>>> {
  return send(route, undefined, false, { path: routePath(route.path, params), raw: file });
}

/**
 * The route with its `:name` placeholders filled in, for the JSON helpers: `getJson(withParams(HttpRoutes.x, { id }))`.
 */
export function withParams<R extends HttpRoute>(route: R, params: Readonly<Record<string, string>>): R {
  return { ...route, path: routePath(route.path, params) };
}

/**
 * A JSON call to a route with `:name` placeholders in its path (an order's id, a card's serial), e.g.
 * `callAt(HttpRoutes.approveProof, { orderId })`; the body, when the route takes one.
 */
export function callAt<R extends HttpRoute>(
  route: R,
  params: Readonly<Record<string, string>>,
  ...body: R extends BodyRoute ? [RequestBody<R>] : []
): Promise<HttpResult<ResponseData<R>>> {
  return send(route, body[0], false, { path: routePath(route.path, params) });
}

/** The route's path with its `:name` placeholders filled in (URL-encoded). */
export function routePath(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/:([A-Za-z]+)/g, (placeholder, name: string) => {
    const value = params[name];
    return value === undefined ? placeholder : encodeURIComponent(value);
  });
}

async function send<T>(route: HttpRoute, body: unknown, isRetry = false, payload?: Payload): Promise<HttpResult<T>> {
  const changesState = route.method !== 'get';
  if (changesState) await sessionStore.loaded();
  const csrfToken = changesState ? currentCsrfToken() : null;
  const headers: Record<string, string> = { accept: 'application/json' };
  const raw = payload?.raw;
  if (raw) headers['content-type'] = raw.type || 'application/octet-stream';
  else if (body !== undefined) headers['content-type'] = 'application/json';
  if (csrfToken) headers[CSRF_HEADER] = csrfToken;

  let response: Response;
  try {
    response = await fetch(payload?.path ?? route.path, {
      method: route.method.toUpperCase(),
      headers,
      body: raw ?? (body === undefined ? null : JSON.stringify(body)),
      credentials: 'same-origin',
      signal: AbortSignal.timeout(raw ? UPLOAD_TIMEOUT_MS : REQUEST_TIMEOUT_MS),
    });
  } catch {
    return {
      ok: false,
      error: { statusCode: NETWORK_FAILURE_STATUS, code: NetworkErrorCode, message: NETWORK_FAILURE_MESSAGE },
    };
  }
  if (response.status === 403 && changesState && !isRetry && (await resyncSession(csrfToken))) {
    return send<T>(route, body, true, payload);
  }
  return readResult<T>(route, response);
}

/** After a refused change: reads the session again; true when it brought a token other than the one sent. */
async function resyncSession(sentToken: string | null): Promise<boolean> {
  const versionBefore = sessionStore.version();
  const result = await send<ResponseData<typeof HttpRoutes.getSession>>(HttpRoutes.getSession, undefined, true);
  if (!result.ok) return false;
  if (sessionStore.version() === versionBefore) sessionStore.setFromResponse(result.data);
  return result.data.csrfToken !== null && result.data.csrfToken !== sentToken;
}

async function readResult<T>(route: HttpRoute, response: Response): Promise<HttpResult<T>> {
  const json = await readJson(response);
  const schema = route.responses[response.status]?.schema;
  if (response.ok) {
    if (!schema) return { ok: true, status: response.status, data: undefined as T };
    const parsed = schema.safeParse(json);
    if (parsed.success) return { ok: true, status: response.status, data: parsed.data as T };
    return { ok: false, error: unexpected(response.status) };
  }
  const error = ApiErrorSchema.safeParse(json);
  return { ok: false, error: error.success ? error.data : unexpected(response.status) };
}

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  try {
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}

function unexpected(statusCode: number): ApiError {
  return {
    statusCode,
    code: UnexpectedResponseCode,
    message: 'Unexpected response format',
  };
}
