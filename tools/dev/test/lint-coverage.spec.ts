// `npm run lint` lints project by project (`nx run-many -t lint`, cached per project); `npm test`'s checks lint the
// whole tree at once (`eslint .`: fewer CPU-seconds when nothing is cached, docs/benchmarks.md).
// So that no source file slips between the projects, every file ESLint reads (TypeScript and JavaScript outside
// node_modules, builds and generated output) lies under a project's root or is one that the dev project's lint
// names (the root configs and the tools without a project of their own).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from '@jest/globals';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const SKIP = new Set(['node_modules', 'dist', 'dist-ssr', '.nx', '.git', 'test-results', 'coverage', 'tmp', '.vite']);
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) ? [relative(ROOT, path)] : [];
  });
}

function projectRoots(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name) || !entry.isDirectory()) return [];
    const path = join(dir, entry.name);
    const here = readdirSync(path).includes('project.json') ? [relative(ROOT, path)] : [];
    return [...here, ...projectRoots(path)];
  });
}

describe('lint coverage', () => {
  it('every source file is linted by some project’s lint target', () => {
    const roots = projectRoots(ROOT);
    const dev = JSON.parse(readFileSync(join(ROOT, 'tools/dev/project.json'), 'utf8')) as {
      targets: { lint: { command: string } };
    };
    // The dev project's lint runs in tools/dev: its arguments are paths relative to it.
    const named = dev.targets.lint.command
      .split(/\s+/)
      .filter((arg) => arg.startsWith('.'))
      .map((arg) => relative(ROOT, resolve(ROOT, 'tools/dev', arg)));
    const covered = (file: string) =>
      roots.some((root) => file.startsWith(`${root}/`)) || named.some((path) => file === path || file.startsWith(`${path}/`));
    const files = sourceFiles(ROOT).filter((file) => !file.endsWith('.d.ts'));
    assert.ok(files.length > 100, `found ${files.length} source files`);
    const outside = files.filter((file) => !covered(file));
    assert.equal(outside.join('\n'), '', 'files outside every lint target: add them to a project, or to the dev project’s lint command');
  });
});
