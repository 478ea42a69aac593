// The service layout of docs/architecture.md ("Service layout"), checked on every service's source: SQL (drizzle) only in
// repositories and the schema, use cases only under `use-cases/`, event handlers only in `*.handler.ts` files (never
// inside `use-cases/`), queue workers and timer tasks only under `workers/` or in `*.worker.ts` files, and no repository
// over about a dozen methods (one per aggregate).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from '@jest/globals';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const MAX_METHODS = 12;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [relative(ROOT, path)] : [];
  });
}

/** The services: the apps with tables of their own. */
function serviceSources(): string[] {
  return readdirSync(join(ROOT, 'apps'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, 'apps', entry.name, 'src', 'db', 'schema.ts')))
    .flatMap((entry) => sourceFiles(join(ROOT, 'apps', entry.name, 'src')));
}

const METHOD = /^ {2}(?:(?:public|private|protected|static|async|override)\s+)*(?!constructor\b)[A-Za-z_$][\w$]*\s*(?:<[^>]*>)?\(/gm;

/** What a file breaks of the layout, each as `<path>: <problem>`. */
function layoutProblems(path: string, text: string): string[] {
  const problems: string[] = [];
  const repository = path.endsWith('.repository.ts');
  if (/from 'drizzle-orm/.test(text) && !repository && !path.endsWith('/db/schema.ts')) {
    problems.push(`${path}: SQL (drizzle-orm) outside a repository`);
  }
  if (/\/use-cases\//.test(path) && /@OnEvent\(/.test(text)) problems.push(`${path}: an event handler inside use-cases/`);
  else if (/@OnEvent\(/.test(text) && !path.endsWith('.handler.ts')) problems.push(`${path}: an event handler outside a *.handler.ts file`);
  if (path.endsWith('.use-case.ts') && !/\/use-cases\//.test(path)) problems.push(`${path}: a use case outside use-cases/`);
  if (/new (?:Worker|IntervalTask)\b/.test(text) && !/\/workers\//.test(path) && !path.endsWith('.worker.ts')) {
    problems.push(`${path}: a queue worker or timer task outside workers/`);
  }
  if (repository) {
    const methods = text.match(METHOD)?.length ?? 0;
    if (methods > MAX_METHODS) problems.push(`${path}: ${methods} methods (at most ${MAX_METHODS}): split it by aggregate`);
  }
  return problems;
}

describe('service layout', () => {
  it('every service keeps SQL in its repositories, use cases, handlers and workers in their places and its repositories small', () => {
    const files = serviceSources();
    assert.ok(files.length > 100, `found only ${files.length} service source files`);
    const problems = files.flatMap((file) => layoutProblems(file, readFileSync(join(ROOT, file), 'utf8')));
    assert.equal(problems.join('\n'), '');
  });

  it('finds SQL outside a repository, a handler in a use case or elsewhere, a stray use case or worker and a repository that grew', () => {
    const methods = Array.from({ length: 13 }, (_, i) => `  async m${i}(db: Database): Promise<void> {}\n`).join('');
    const found = [
      ...layoutProblems('apps/x/src/f/f.worker.ts', "import { eq } from 'drizzle-orm';\n"),
      ...layoutProblems('apps/x/src/f/use-cases/mark.use-case.ts', '  @OnEvent(Events.a)\n  execute() {}\n'),
      ...layoutProblems('apps/x/src/f/f.repository.ts', `export class R {\n  constructor() {}\n${methods}}\n`),
      ...layoutProblems('apps/x/src/f/g.repository.ts', "import { eq } from 'drizzle-orm';\n  private x(a: number) {}\n"),
      ...layoutProblems('apps/x/src/db/schema.ts', "import { sql } from 'drizzle-orm';\n"),
      ...layoutProblems('apps/x/src/f/f-events.ts', '  @OnEvent(Events.a)\n  on() {}\n'),
      ...layoutProblems('apps/x/src/f/f-events.handler.ts', '  @OnEvent(Events.a)\n  on() {}\n'),
      ...layoutProblems('apps/x/src/f/mark.use-case.ts', 'export class Mark {}\n'),
      ...layoutProblems('apps/x/src/f/f-sweeper.ts', "const task = new IntervalTask('sweep', 1000, work, logger);\n"),
      ...layoutProblems('apps/x/src/f/f-push.ts', 'const worker = new Worker<Job>(QueueName.Push, run);\n'),
      ...layoutProblems('apps/x/src/f/workers/f-sweeper.ts', "const task = new IntervalTask('sweep', 1000, work, logger);\n"),
      ...layoutProblems('apps/x/src/f/f-push.worker.ts', 'const worker = new Worker<Job>(QueueName.Push, run);\n'),
    ];
    assert.equal(
      found.join('\n'),
      [
        'apps/x/src/f/f.worker.ts: SQL (drizzle-orm) outside a repository',
        'apps/x/src/f/use-cases/mark.use-case.ts: an event handler inside use-cases/',
        'apps/x/src/f/f.repository.ts: 13 methods (at most 12): split it by aggregate',
        'apps/x/src/f/f-events.ts: an event handler outside a *.handler.ts file',
        'apps/x/src/f/mark.use-case.ts: a use case outside use-cases/',
        'apps/x/src/f/f-sweeper.ts: a queue worker or timer task outside workers/',
        'apps/x/src/f/f-push.ts: a queue worker or timer task outside workers/',
      ].join('\n'),
    );
  });
});
