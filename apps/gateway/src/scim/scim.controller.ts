import { Controller, Inject, Param, Req, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import {
  HttpRoutes,
  Rpc,
  ScimMessages,
  ScimRequestError,
  ScimSchemas,
  parseScimFilter,
  scimPaging,
  scimUserFromResource,
} from '@digicard/contracts';
import { CONFIG } from '@digicard/server';
import type { Config } from '../config.js';
import { Route } from '../http/route.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { SessionStore } from '../session/session.store.js';
import { ScimCalls, scimBodyOf, sendScim, type ScimRequest } from './scim-calls.js';
import { resourceTypes, schemas, serviceProviderConfig } from './scim-discovery.js';
import { ScimExceptionFilter } from './scim-exception.filter.js';

/**
 * SCIM 2.0 at `/scim/v2` (issue 27 item 2; docs/decisions/0014-scim-provisioning.md): a company's identity provider
 * provisions the team's reps with the team's bearer token. The gateway reads the SCIM request (the resource, the
 * filter, the paging), hashes the token and asks the teams service, which finds the team by the hash (401 for none),
 * does the call as the leader does it in the Teams section and writes it to the team's audit list. A deactivated or
 * deleted rep is signed out everywhere at once.
 */
@Controller()
@UseFilters(ScimExceptionFilter)
export class ScimController {
  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(SessionStore) private readonly sessions: SessionStore,
    @Inject(ScimCalls) private readonly scim: ScimCalls,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Route(HttpRoutes.scimServiceProviderConfig)
  serviceProviderConfig(@Res() res: Response): void {
    sendScim(res, { status: 200, body: serviceProviderConfig(this.scim.baseUrl, `${this.config.PUBLIC_URL.replace(/\/+$/, '')}/docs`) });
  }

  @Route(HttpRoutes.scimResourceTypes)
  resourceTypes(@Res() res: Response): void {
    sendScim(res, { status: 200, body: resourceTypes(this.scim.baseUrl) });
  }

  @Route(HttpRoutes.scimSchemas)
  schemas(@Res() res: Response): void {
    sendScim(res, { status: 200, body: schemas(this.scim.baseUrl) });
  }

  @Route(HttpRoutes.scimCreateUser)
  create(@Req() req: ScimRequest, @Res() res: Response): Promise<void> {
    return this.scim.run(req, res, async (tokenHash, call, meta) => {
      const user = scimUserFromResource(scimBodyOf(req));
      const { user: created } = await this.rpc.call(Rpc.scimCreateUser, { tokenHash, call, user }, meta);
      const resource = this.scim.resource(created);
      return { status: 201, body: resource, location: resource.meta.location };
    });
  }

  @Route(HttpRoutes.scimListUsers)
  list(@Req() req: ScimRequest, @Res() res: Response): Promise<void> {
    return this.scim.run(req, res, async (tokenHash, call, meta) => {
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
          Resources: users.map((u) => this.scim.resource(u)),
        },
      };
    });
  }

  @Route(HttpRoutes.scimGetUser)
  get(@Param('scimUserId') id: string, @Req() req: ScimRequest, @Res() res: Response): Promise<void> {
    return this.scim.run(req, res, async (tokenHash, call, meta) => {
      const { user } = await this.rpc.call(Rpc.scimGetUser, { tokenHash, call, id }, meta);
      return { status: 200, body: this.scim.resource(user) };
    });
  }

  @Route(HttpRoutes.scimReplaceUser)
  replace(@Param('scimUserId') id: string, @Req() req: ScimRequest, @Res() res: Response): Promise<void> {
    return this.scim.run(req, res, async (tokenHash, call, meta) => {
      const user = scimUserFromResource(scimBodyOf(req));
      const result = await this.rpc.call(Rpc.scimReplaceUser, { tokenHash, call, id, user }, meta);
      if (result.signedOut) await this.sessions.destroyAllFor(id);
      return { status: 200, body: this.scim.resource(result.user) };
    });
  }

  @Route(HttpRoutes.scimPatchUser)
  patch(@Param('scimUserId') id: string, @Req() req: ScimRequest, @Res() res: Response): Promise<void> {
    return this.scim.run(req, res, async (tokenHash, call, meta) => {
      const operations = scimBodyOf(req);
      const result = await this.rpc.call(Rpc.scimPatchUser, { tokenHash, call, id, operations }, meta);
      if (result.signedOut) await this.sessions.destroyAllFor(id);
      return { status: 200, body: this.scim.resource(result.user) };
    });
  }

  @Route(HttpRoutes.scimDeleteUser)
  delete(@Param('scimUserId') id: string, @Req() req: ScimRequest, @Res() res: Response): Promise<void> {
    return this.scim.run(req, res, async (tokenHash, call, meta) => {
      await this.rpc.call(Rpc.scimDeleteUser, { tokenHash, call, id }, meta);
      await this.sessions.destroyAllFor(id);
      return { status: 204 };
    });
  }
}
