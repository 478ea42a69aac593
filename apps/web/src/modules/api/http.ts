import { ApiErrorSchema, type ApiError, type HttpRoute } from '@digicard/contracts';
import type { z } from 'zod';

/** The one way the web app calls the gateway's JSON API; every call is typed by its entry in `HttpRoutes`. */

type SuccessStatus = 200 | 201 | 202;

type PostRoute = HttpRoute & { readonly method: 'post'; readonly body: z.ZodType };

/** The body the route takes, as the form holds it (the schema's input type). */
export type RequestBody<R extends PostRoute> = z.input<R['body']>;

/** The parsed body of the route's success answer. */
export type ResponseData<R extends HttpRoute> =
  R['responses'][keyof R['responses'] & SuccessStatus] extends { readonly schema: infer S extends z.ZodType }
    ? z.output<S>
    : undefined;

export type HttpResult<T> = { ok: true; status: number; data: T } | { ok: false; error: ApiError };

/** `statusCode` of the synthetic error returned when no answer arrived (offline, DNS, timeout). */
export const NETWORK_FAILURE_STATUS = 0;
export const NetworkErrorCode = 'NETWORK_ERROR';
export const UnexpectedResponseCode = 'UNEXPECTED_RESPONSE';

const REQUEST_TIMEOUT_MS = 20_000;

export async function postJson<R extends PostRoute>(
  route: R,
  body: RequestBody<R>,
): Promise<HttpResult<ResponseData<R>>> {
  let response: Response;
  try {
    response = await fetch(route.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch {
    return {
      ok: false,
      error: {
        statusCode: NETWORK_FAILURE_STATUS,
        code: NetworkErrorCode,
        message: 'We could not reach the server. Please check your connection and try again.',
      },
    };
  }
  return readResult<ResponseData<R>>(route, response);
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
