import { z } from 'zod';
import { HttpRoutes, type HttpRoute } from './api-routes.js';

type JsonSchema = Record<string, unknown>;

/** Converts one schema; named schemas (`.meta({ id })`) go to components and are referenced. */
function schemaOf(schema: z.ZodType, io: 'input' | 'output', components: Record<string, JsonSchema>): JsonSchema {
  const raw = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
  const json = JSON.parse(JSON.stringify(raw).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
  const defs = (json['$defs'] ?? {}) as Record<string, JsonSchema>;
  for (const [name, def] of Object.entries(defs)) {
    // Request and response forms of one schema can differ (defaults, transforms); keep both apart.
    const key = io === 'input' ? `${name}Input` : name;
    components[key] = def;
  }
  delete json['$schema'];
  delete json['$defs'];
  if (io === 'input' && typeof json['$ref'] === 'string') json['$ref'] = `${json['$ref']}Input`;
  return json;
}

/** The gateway's OpenAPI 3.1 document, derived from the route table and its zod schemas. */
export function buildOpenApiDocument(version: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Record<string, JsonSchema> = {};
  const routes: HttpRoute[] = Object.values(HttpRoutes);
  for (const route of routes) {
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(route.responses)) {
      responses[status] = {
        description: response.description,
        ...(!response.schema && route.produces && Number(status) < 300
          ? { content: { [route.produces]: { schema: { type: 'string', format: 'binary' } } } }
          : {}),
        ...(response.schema
          ? { content: { 'application/json': { schema: schemaOf(response.schema, 'output', components) } } }
          : {}),
      };
    }
    // Nest writes path parameters as :id, OpenAPI as {id}.
    const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[route.method] = {
      operationId: route.operationId,
      ...(params.length > 0
        ? { parameters: params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })) }
        : {}),
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
