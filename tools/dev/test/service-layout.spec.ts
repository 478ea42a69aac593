// The service layout of docs/subsystems.md ("Service layout"), checked on every service's source: SQL (drizzle) only in
// repositories and the schema, event handlers never inside `use-cases/`, and no repository over about a dozen methods
// (one per aggregate), but for the ones listed below, which are still to be split (issue 23, item 3).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from '@jest/globals';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const MAX_METHODS = 12;
/** Repositories not split yet, with the methods they have now: they may shrink, never grow. */
const NOT_SPLIT_YET: Record<string, number> = {
  'apps/identity/src/accounts/accounts.repository.ts': 23,
  'apps/profiles/src/profiles/profiles.repository.ts': 28,
  'apps/profiles/src/wallet/apple-passes.repository.ts': 16,
};

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
  if (repository) {
    const methods = text.match(METHOD)?.length ?? 0;
    const allowed = NOT_SPLIT_YET[path] ?? MAX_METHODS;
    if (methods > allowed) problems.push(`${path}: ${methods} methods (at most ${allowed}): split it by aggregate`);
  }
  return problems;
}

describe('service layout', () => {
  it('every service keeps SQL in its repositories, handlers out of use-cases/ and its repositories small', () => {
    const files = serviceSources();
    assert.ok(files.length > 100, `found only ${files.length} service source files`);
    const problems = files.flatMap((file) => layoutProblems(file, readFileSync(join(ROOT, file), 'utf8')));
    assert.equal(problems.join('\n'), '');
  });

  it('finds SQL outside a repository, a handler in a use case and a repository that grew', () => {
    const methods = Array.from({ length: 13 }, (_, i) => `  async m${i}(db: Database): Promise<void> {}\n`).join('');
    const found = [
      ...layoutProblems('apps/x/src/f/f.worker.ts', "import { eq } from 'drizzle-orm';\n"),
      ...layoutProblems('apps/x/src/f/use-cases/mark.use-case.ts', '  @OnEvent(Events.a)\n  execute() {}\n'),
      ...layoutProblems('apps/x/src/f/f.repository.ts', `export class R {\n  constructor() {}\n${methods}}\n`),
      ...layoutProblems('apps/x/src/f/g.repository.ts', "import { eq } from 'drizzle-orm';\n  private x(a: number) {}\n"),
      ...layoutProblems('apps/x/src/db/schema.ts', "import { sql } from 'drizzle-orm';\n"),
    ];
    assert.equal(
      found.join('\n'),
      [
        'apps/x/src/f/f.worker.ts: SQL (drizzle-orm) outside a repository',
        'apps/x/src/f/use-cases/mark.use-case.ts: an event handler inside use-cases/',
        'apps/x/src/f/f.repository.ts: 13 methods (at most 12): split it by aggregate',
      ].join('\n'),
    );
  });
});
