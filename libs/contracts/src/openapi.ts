import { z } from 'zod';
import { ApiErrorSchema } from './errors.js';
import { DerivedResponses, HttpRoutes, type HttpRoute } from './api-routes.js';

type JsonSchema = Record<string, unknown>;

/** Converts one schema; named schemas (`.meta({ id })`) go to components and are referenced. */
function schemaOf(schema: z.ZodType, io: 'input' | 'output', components: Record<string, JsonSchema>): JsonSchema {
  const raw = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
  // Request and response forms of one schema can differ (defaults, transforms); keep both apart. Every reference
  // is renamed, the nested ones included (a request embedding another named request points at its input form).
  const suffix = io === 'input' ? 'Input' : '';
  const text = JSON.stringify(raw).replace(/"#\/\$defs\/([^"]+)"/g, (_, name: string) => `"#/components/schemas/${name}${suffix}"`);
  const json = JSON.parse(text) as JsonSchema;
  const defs = (json['$defs'] ?? {}) as Record<string, JsonSchema>;
  for (const [name, def] of Object.entries(defs)) components[`${name}${suffix}`] = def;
  delete json['$schema'];
  delete json['$defs'];
  return json;
}

/** A route's query string, as OpenAPI parameters: one per property of the query schema's input form. */
function queryParameters(schema: z.ZodType, components: Record<string, JsonSchema>): JsonSchema[] {
  const json = schemaOf(schema, 'input', components);
  const properties = (json['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json['required'] ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, in: 'query', required: required.has(name), schema: property }));
}

/**
 * A route's answers: those its table entry lists, plus those its declarations imply (a body can be refused, a route
 * for accounts answers signed-out callers, a role can be missing, a path parameter can name nothing, a limit can be
 * reached). A listed answer keeps its more precise description.
 */
export function responsesOf(route: HttpRoute): HttpRoute['responses'] {
  const derived: Record<number, { description: string; schema?: z.ZodType }> = {};
  if (route.body || route.query) derived[400] = DerivedResponses.badRequest;
  if (route.access !== 'public') derived[401] = DerivedResponses.signedOut;
  if (Array.isArray(route.access)) derived[403] = DerivedResponses.roleMissing;
  if (route.params) derived[404] = { description: route.params.notFound, schema: ApiErrorSchema };
  if (route.limits && route.limits.length > 0) derived[429] = DerivedResponses.tooMany;
  return { ...derived, ...route.responses };
}

/** The gateway's OpenAPI 3.1 document, derived from the route table and its zod schemas. */
export function buildOpenApiDocument(version: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Record<string, JsonSchema> = {};
  const routes: HttpRoute[] = Object.values(HttpRoutes);
  for (const route of routes) {
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(responsesOf(route))) {
      responses[status] = {
        description: response.description,
        ...(!response.schema && route.produces && Number(status) < 300
          ? { content: { [route.produces]: { schema: { type: 'string', format: 'binary' } } } }
          : {}),
        ...(response.schema ? { content: { 'application/json': { schema: schemaOf(response.schema, 'output', components) } } } : {}),
      };
    }
    // Nest writes path parameters as :id, OpenAPI as {id}.
    const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const parameters = [
      ...params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...(route.query ? queryParameters(route.query, components) : []),
    ];
    (paths[path] ??= {})[route.method] = {
      operationId: route.operationId,
      ...(parameters.length > 0 ? { parameters } : {}),
      summary: route.summary,
      tags: [route.tag],
      ...(route.upload
        ? { requestBody: { required: true, content: { [route.upload]: { schema: { type: 'string', format: 'binary' } } } } }
        : {}),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: schemaOf(route.body, 'input', components) } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'DigiCard gateway API',
      version,
      description: 'The HTTP API the web app uses. Generated from libs/contracts; do not edit by hand.',
    },
    paths,
    components: { schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))) },
  };
}
