import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { Config } from '../config.js';

/** Helmet's security headers for every answer of the gateway (the CSP allows the privacy-mode video players). */
export function securityHeaders(config: Config) {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        // Profile videos play in the privacy-friendly players only.
        frameSrc: ['https://www.youtube-nocookie.com', 'https://player.vimeo.com'],
        upgradeInsecureRequests: config.PUBLIC_URL.startsWith('https:') ? [] : null,
      },
    },
    strictTransportSecurity: config.PUBLIC_URL.startsWith('https:'),
  });
}

/**
 * The very headers `securityHeaders(config)` sets, computed once: helmet's are the same for every request (no
 * nonces), so the public-page fast path sends this object instead of running helmet per request.
 */
export function precomputedSecurityHeaders(config: Config): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  const res = {
    setHeader(name: string, value: string | number | string[]) {
      headers[name.toLowerCase()] = value;
      return res;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
    getHeader(name: string) {
      return headers[name.toLowerCase()];
    },
  };
  let called = false;
  securityHeaders(config)({ headers: {} } as IncomingMessage, res as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error('helmet failed');
    called = true;
  });
  if (!called || Object.keys(headers).length === 0) throw new Error('helmet did not set its headers synchronously');
  return headers;
}
