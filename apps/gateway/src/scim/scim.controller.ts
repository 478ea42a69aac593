import { Controller, Inject, Param, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  HttpRoutes,
  Rpc,
  SCIM_BASE_PATH,
  SCIM_MEDIA_TYPE,
  ScimMessages,
  ScimRequestError,
  ScimSchemas,
  parseScimFilter,
  scimPaging,
  scimUserFromResource,
  toScimUser,
  type RequestMeta,
  type ScimUserRecord,
} from '@digicard/contracts';
import { CONFIG } from '@digicard/server';
import type { Config } from '../config.js';
import { requestMetaOf } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import type { SessionRequest } from '../session/session.middleware.js';
import { SessionStore } from '../session/session.store.js';
import { resourceTypes, schemas, serviceProviderConfig } from './scim-discovery.js';
import { ScimExceptionFilter } from './scim-exception.filter.js';
import { SCIM_BODY_UNREADABLE, hashScimToken, scimTokenMissing, scimTokenOf } from './scim-token.js';

type ScimRequest = Request & { [SCIM_BODY_UNREADABLE]?: true };
type Call = { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string };
type Answer = { status: number; body?: unknown; location?: string };

/**
 * SCIM 2.0 at `/scim/v2` (issue 27 item 2; docs/decisions/0013-scim-provisioning.md): a company's identity provider
 * provisions the team's reps with the team's bearer token. The gateway reads the SCIM request (the resource, the
 * filter, the paging), hashes the token and asks the teams service, which finds the team by the hash (401 for none),
 * does the call as the leader does it in the Teams section and writes it to the team's audit list; a request refused
 * here is written there too. A deactivated or deleted rep is signed out everywhere at once.
 */
@Controller()
@UseFilters(ScimExceptionFilter)
export class ScimController {
  private readonly baseUrl: string;

  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(SessionStore) private readonly sessions: SessionStore,
    @Inject(CONFIG) private readonly config: Config,
  ) {
    this.baseUrl = `${config.PUBLIC_URL.replace(/\/+$/, '')}${SCIM_BASE_PATH}`;
  }

  @Route(HttpRoutes.scimServiceProviderConfig)
  serviceProviderConfig(@Res() res: Response): void {
    send(res, { status: 200, body: serviceProviderConfig(this.baseUrl, `${this.config.PUBLIC_URL.replace(/\/+$/, '')}/docs`) });
  }

  @Route(HttpRoutes.scimResourceTypes)
  resourceTypes(@Res() res: Response): void {
    send(res, { status: 200, body: resourceTypes(this.baseUrl) });
  }

  @Route(HttpRoutes.scimSchemas)
  schemas(@Res() res: Response): void {
    send(res, { status: 200, body: schemas(this.baseUrl) });
  }

  @Route(HttpRoutes.scimCreateUser)
  create(@Req() req: ScimRequest, @Res() res: Response): Promise<void> {
    return this.run(req, res, async (tokenHash, call, meta) => {
      const user = scimUserFromResource(bodyOf(req));
      const { user: created } = await this.rpc.call(Rpc.scimCreateUser, { tokenHash, call, user }, meta);
      const resource = this.resource(created);
      return { status: 201, body: resource, location: resource.meta.location };
    });
  }

  @Route(HttpRoutes.scimListUsers)
  list(@Req() req: ScimRequest, @Res() res: Response): Promise<void> {
    return this.run(req, res, async (tokenHash, call, meta) => {
      const query = req.query as Record<string, unknown>;
      if (Array.isArray(query['filter'])) throw new ScimRequestError(400, 'invalidFilter', ScimMessages.badFilter);
      const filter = parseScimFilter(query['filter'] as string | undefined);
      const { startIndex, count } = scimPaging(query['startIndex'], query['count']);
      const { totalResults, users } = await this.rpc.call(Rpc.scimListUsers, { tokenHash, call, filter, startIndex, count }, meta);
      return {
        status: 200,
        body: {
          schemas: [ScimSchemas.listResponse],
          totalResults,
          startIndex,
          itemsPerPage: users.length,
          Resources: users.map((u) => this.resource(u)),
        },
      };
    });
  }

  @Route(HttpRoutes.scimGetUser)
  get(@Param('scimUserId') id: string, @Req() req: ScimRequest, @Res() res: Response): Promise<void> {
    return this.run(req, res, async (tokenHash, call, meta) => {
      const { user } = await this.rpc.call(Rpc.scimGetUser, { tokenHash, call, id }, meta);
      return { status: 200, body: this.resource(user) };
    });
  }

  @Route(HttpRoutes.scimReplaceUser)
  replace(@Param('scimUserId') id: string, @Req() req: ScimRequest, @Res() res: Response): Promise<void> {
    return this.run(req, res, async (tokenHash, call, meta) => {
      const user = scimUserFromResource(bodyOf(req));
      const result = await this.rpc.call(Rpc.scimReplaceUser, { tokenHash, call, id, user }, meta);
      if (result.signedOut) await this.sessions.destroyAllFor(id);
      return { status: 200, body: this.resource(result.user) };
    });
  }

  @Route(HttpRoutes.scimPatchUser)
  patch(@Param('scimUserId') id: string, @Req() req: ScimRequest, @Res() res: Response): Promise<void> {
    return this.run(req, res, async (tokenHash, call, meta) => {
      const operations = bodyOf(req);
      const result = await this.rpc.call(Rpc.scimPatchUser, { tokenHash, call, id, operations }, meta);
      if (result.signedOut) await this.sessions.destroyAllFor(id);
      return { status: 200, body: this.resource(result.user) };
    });
  }

  @Route(HttpRoutes.scimDeleteUser)
  delete(@Param('scimUserId') id: string, @Req() req: ScimRequest, @Res() res: Response): Promise<void> {
    return this.run(req, res, async (tokenHash, call, meta) => {
      await this.rpc.call(Rpc.scimDeleteUser, { tokenHash, call, id }, meta);
      await this.sessions.destroyAllFor(id);
      return { status: 204 };
    });
  }

  private resource(user: ScimUserRecord) {
    return toScimUser(user, this.baseUrl);
  }

  /**
   * One SCIM call: the token's hash names the team; a request this side refuses (unreadable JSON, a bad resource or
   * filter) is still written to that team's audit list, after which teams' 401 for an unknown token wins.
   */
  private async run(
    req: ScimRequest,
    res: Response,
    work: (tokenHash: string, call: Call, meta: RequestMeta) => Promise<Answer>,
  ): Promise<void> {
    const token = scimTokenOf(req);
    if (!token) throw scimTokenMissing();
    const tokenHash = hashScimToken(token);
    // The path only: a query string is the client's (a filter may hold an address), and the token is never in it.
    const call = { method: req.method.toUpperCase() as Call['method'], path: req.path.slice(0, 300) };
    // No session stands behind a SCIM call, whatever cookie came with it.
    const meta: RequestMeta = { ...requestMetaOf(req as SessionRequest), userId: null, role: null };
    try {
      if (req[SCIM_BODY_UNREADABLE]) throw new ScimRequestError(400, 'invalidSyntax', ScimMessages.badJson);
      send(res, await work(tokenHash, call, meta));
    } catch (error) {
      if (error instanceof ScimRequestError)
        await this.rpc.call(Rpc.scimRefused, { tokenHash, call, status: error.status, outcome: error.scimType ?? 'refused' }, meta);
      throw error;
    }
  }
}

/** The JSON body of a POST, PUT or PATCH: a missing one is a syntax error. */
function bodyOf(req: ScimRequest): unknown {
  if (req.body === undefined) throw new ScimRequestError(400, 'invalidSyntax', ScimMessages.badJson);
  return req.body;
}

function send(res: Response, { status, body, location }: Answer): void {
  if (location) res.setHeader('Location', location);
  res.setHeader('Cache-Control', 'no-store');
  if (body === undefined) res.status(status).end();
  else res.status(status).type(SCIM_MEDIA_TYPE).send(JSON.stringify(body));
}
