import { applyDecorators, HttpCode, RequestMapping, RequestMethod, SetMetadata, UseGuards } from '@nestjs/common';
import { successStatus, type GatewayRoute } from '@digicard/contracts';
import { SignInGuards } from '../auth/sign-in.guard.js';
import { ROUTE, RouteGuard } from './route.guard.js';

const methods: Record<GatewayRoute['method'], RequestMethod> = {
  get: RequestMethod.GET,
  post: RequestMethod.POST,
  put: RequestMethod.PUT,
  patch: RequestMethod.PATCH,
  delete: RequestMethod.DELETE,
};

/**
 * Serves a handler as its entry in a route table says (`HttpRoutes`, `PageRoutes`, `OperationsRoutes`): method and
 * path, the success status, then, before the handler runs, the body, the access, the path parameters and the limits
 * (`RouteGuard`), and last the sign-in strategy when the route has one. Every gateway handler carries exactly this
 * decorator (the lint rule `digicard/every-handler-has-route` says so), so the table is the one place these are
 * decided.
 */
export function Route(route: GatewayRoute): MethodDecorator {
  return applyDecorators(
    RequestMapping({ method: methods[route.method], path: route.path }),
    HttpCode(successStatus(route)),
    SetMetadata(ROUTE, route),
    UseGuards(RouteGuard, ...(route.signIn ? [SignInGuards[route.signIn]] : [])),
  );
}
