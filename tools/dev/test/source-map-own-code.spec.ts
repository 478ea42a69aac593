// The bundles' source maps keep our code's mappings and drop the packages' (tools/dev/source-map-own-code.mjs):
// checked with Node's own source-map reader, on a map esbuild makes from two files, one of them in node_modules.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from '@jest/globals';
import { build } from 'esbuild';
import { ownCodeOnly } from '../source-map-own-code.mjs';

describe('the bundle source map', () => {
  it('maps our code back to its file and line, and leaves a package unmapped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'own-code-'));
    mkdirSync(join(dir, 'node_modules', 'pkg'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'pkg', 'index.js'), 'export function fromPackage(a) {\n  return a * 2;\n}\n');
    writeFileSync(
      join(dir, 'entry.js'),
      "import { fromPackage } from 'pkg';\n\nexport function ourOwn(x) {\n  return fromPackage(x) + 1;\n}\nconsole.log(ourOwn(2));\n",
    );
    await build({
      entryPoints: [join(dir, 'entry.js')],
      outfile: join(dir, 'out.js'),
      bundle: true,
      format: 'esm',
      sourcemap: true,
      logLevel: 'error',
    });
    const raw = JSON.parse(readFileSync(join(dir, 'out.js.map'), 'utf8'));
    const lines = readFileSync(join(dir, 'out.js'), 'utf8').split('\n');
    const at = (needle: string) => {
      const line = lines.findIndex((l) => l.includes(needle));
      return [line, lines[line]!.indexOf(needle)] as const;
    };
    const before = new SourceMap(raw);
    const after = new SourceMap({ ...raw, ...ownCodeOnly(raw) });
    const entry = (map: SourceMap, at: readonly [number, number]) =>
      map.findEntry(...at) as { originalSource?: string; originalLine?: number };
    const ours = at('fromPackage(x) + 1');
    const theirs = at('a * 2');
    // Before: both map. After: ours still maps to entry.js line 4 (0-based 3), the package's maps to nothing.
    assert.match(String(entry(before, theirs).originalSource), /node_modules\/pkg\/index\.js$/);
    assert.match(String(entry(after, ours).originalSource), /entry\.js$/);
    assert.equal(entry(after, ours).originalLine, 3);
    assert.equal(entry(after, theirs).originalSource, undefined);
    assert.ok(ownCodeOnly(raw).mappings.length < raw.mappings.length);
  });
});
