// The committed OpenAPI document (apps/gateway/openapi.json, written by tools/dev/openapi.mjs from libs/contracts) is
// checked by tools nobody here wrote: an OpenAPI validator, and a client generator whose output must compile.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from '@jest/globals';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FILE = join(ROOT, 'apps', 'gateway', 'openapi.json');
const load = (): Record<string, unknown> => JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;

describe('the gateway OpenAPI document', () => {
  it('is valid OpenAPI 3.1 for an independent validator, every $ref included', async () => {
    // validate() resolves every reference and checks the document against the OpenAPI 3.1 schema.
    const api = await SwaggerParser.validate(load() as never);
    assert.equal((api as { openapi: string }).openapi, '3.1.0');
  });

  it('a dangling $ref is refused (the check can fail)', async () => {
    const broken = load() as { components: { schemas: Record<string, unknown> } };
    delete broken.components.schemas['RegisterRequestInput'];
    await assert.rejects(SwaggerParser.validate(broken as never), /RegisterRequestInput/);
  });

  const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('generates a typed client that compiles and types a request body and an answer', async () => {
    const types = astToString(await openapiTS(load() as never));
    writeFileSync(join(dir, 'api.d.ts'), types);
    // A caller of the generated types: the registration body and the register operation's 201 answer.
    writeFileSync(
      join(dir, 'use.ts'),
      [
        "import type { paths, components } from './api.js';",
        "type Register = paths['/api/accounts']['post'];",
        "export const body: Register['requestBody']['content']['application/json'] = {} as components['schemas']['RegisterRequestInput'];",
        "export type Created = Register['responses'][201];",
        '// @ts-expect-error: no such path in the document',
        "export type Missing = paths['/api/no-such-route'];",
        '',
      ].join('\n'),
    );
    const program = ts.createProgram([join(dir, 'use.ts')], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: false,
      types: [],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    assert.deepEqual(problems, []);
    assert.match(types, /RegisterRequestInput: \{/);
  });
});
