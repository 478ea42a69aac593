/** One browser's worth of state against the gateway: its session cookie and CSRF token, kept between calls. */
export class ApiClient {
  cookie: string | null = null;
  csrfToken: string | null = null;
  lastSetCookie: string | null = null;

  constructor(readonly baseUrl: string) {}

  async request(
    path: string,
    init: { method?: string; body?: unknown; raw?: Buffer; headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<{
    status: number;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on the JSON's shape
    body: any;
    headers: Headers;
  }> {
    const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'sec-fetch-site': 'same-origin',
      origin: this.baseUrl,
      ...(this.cookie ? { cookie: this.cookie } : {}),
      ...(this.csrfToken && init.csrf !== false && method !== 'GET' ? { 'x-csrf-token': this.csrfToken } : {}),
      ...(init.headers ?? {}),
    };
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: init.raw
        ? new Uint8Array(init.raw)
        : init.body === undefined
          ? undefined
          : typeof init.body === 'string'
            ? init.body
            : JSON.stringify(init.body),
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) {
      this.lastSetCookie = setCookie;
      const [pair] = setCookie.split(';');
      const [name, value] = (pair ?? '').split('=');
      this.cookie = value ? `${name}=${value}` : null;
      if (!value) this.csrfToken = null;
    }
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    if (body && typeof body === 'object' && 'csrfToken' in body) this.csrfToken = (body as { csrfToken: string | null }).csrfToken;
    return { status: res.status, body, headers: res.headers };
  }

  /** The session id the browser holds, if any. */
  get sessionId(): string | null {
    return this.cookie?.split('=')[1] ?? null;
  }
}
