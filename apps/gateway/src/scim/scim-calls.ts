import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  Rpc,
  SCIM_BASE_PATH,
  SCIM_MEDIA_TYPE,
  ScimMessages,
  ScimRequestError,
  refuseScimNul,
  toScimUser,
  type RequestMeta,
  type ScimUserRecord,
  type ScimUserResource,
} from '@digicard/contracts';
import { CONFIG } from '@digicard/server';
import type { Config } from '../config.js';
import { requestMetaOf } from '../http/request-meta.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import type { SessionRequest } from '../session/session.middleware.js';
import { SCIM_BODY_UNREADABLE, hashScimToken, scimTokenMissing, scimTokenOf } from './scim-token.js';

export type ScimRequest = Request & { [SCIM_BODY_UNREADABLE]?: true };
export type ScimCall = { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string };
export type ScimAnswer = { status: number; body?: unknown; location?: string };

/**
 * One SCIM call, as every SCIM route makes it: the token's hash names the team; a request this side refuses (unreadable
 * JSON, a bad resource or filter) is still written to that team's audit list (`teams.scim.refused`), after which
 * teams' 401 for an unknown token wins. Answers are SCIM's JSON (`application/scim+json`), never cached.
 */
@Injectable()
export class ScimCalls {
  readonly baseUrl: string;

  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(CONFIG) config: Config,
  ) {
    this.baseUrl = `${config.PUBLIC_URL.replace(/\/+$/, '')}${SCIM_BASE_PATH}`;
  }

  resource(user: ScimUserRecord): ScimUserResource {
    return toScimUser(user, this.baseUrl);
  }

  async run(
    req: ScimRequest,
    res: Response,
    work: (tokenHash: string, call: ScimCall, meta: RequestMeta) => Promise<ScimAnswer>,
  ): Promise<void> {
    const token = scimTokenOf(req);
    if (!token) throw scimTokenMissing();
    const tokenHash = hashScimToken(token);
    // The path only: a query string is the client's (a filter may hold an address), and the token is never in it.
    const call = { method: req.method.toUpperCase() as ScimCall['method'], path: req.path.slice(0, 300) };
    // No session stands behind a SCIM call, whatever cookie came with it.
    const meta: RequestMeta = { ...requestMetaOf(req as SessionRequest), userId: null, role: null };
    try {
      if (req[SCIM_BODY_UNREADABLE]) throw new ScimRequestError(400, 'invalidSyntax', ScimMessages.badJson);
      sendScim(res, await work(tokenHash, call, meta));
    } catch (error) {
      if (error instanceof ScimRequestError)
        await this.rpc.call(Rpc.scimRefused, { tokenHash, call, status: error.status, outcome: error.scimType ?? 'refused' }, meta);
      throw error;
    }
  }
}

/** The JSON body of a POST, PUT or PATCH: a missing one is a syntax error. */
export function scimBodyOf(req: ScimRequest): unknown {
  if (req.body === undefined) throw new ScimRequestError(400, 'invalidSyntax', ScimMessages.badJson);
  refuseScimNul(req.body);
  return req.body;
}

export function sendScim(res: Response, { status, body, location }: ScimAnswer): void {
  if (location) res.setHeader('Location', location);
  res.setHeader('Cache-Control', 'no-store');
  if (body === undefined) res.status(status).end();
  else res.status(status).type(SCIM_MEDIA_TYPE).send(JSON.stringify(body));
}
