// The tests, the apps and the image run one Node: package.json's `node-<platform>-<arch>` optional dependency (which
// npm scripts find first on PATH), its `engines`, and the Dockerfile's NODE_IMAGE name the same version.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from '@jest/globals';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  optionalDependencies: Record<string, string>;
};
const pinned = pkg.optionalDependencies[`node-${process.platform}-${process.arch}`];
const image = /^ARG NODE_IMAGE=node:(\S+?)-/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1];

describe('one Node for the tests, the apps and the image', () => {
  it('the Dockerfile, engines and every node-* package name the same Node 24 LTS', () => {
    const versions = Object.entries(pkg.optionalDependencies).filter(([name]) => /^node-(linux|darwin|win)-/.test(name));
    assert.ok(versions.length > 0, 'no node-<platform>-<arch> optional dependency');
    for (const [name, version] of versions) assert.equal(version, image, `${name} ${version}, the image ${image}`);
    assert.match(image ?? '', /^24\.\d+\.\d+$/);
    assert.equal(pkg.engines.node, '^24.11.0');
  });

  it('this test runs on that Node, and so does a `node` started by name (as Nx and npm test start theirs)', () => {
    assert.ok(pinned, `no node-${process.platform}-${process.arch} in optionalDependencies`);
    assert.equal(process.version, `v${pinned}`);
    const child = spawnSync('node', ['-p', 'process.version'], { encoding: 'utf8' });
    assert.equal(child.stdout.trim(), `v${pinned}`);
  });

  it('the native modules load and work on it', async () => {
    const { default: argon2 } = await import('argon2');
    assert.equal(await argon2.verify(await argon2.hash('correct horse'), 'correct horse'), true);
    const { default: sharp } = await import('sharp');
    const png = await sharp({ create: { width: 3, height: 2, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    assert.equal((await sharp(png).metadata()).width, 3);
    const swc = await import('@swc/core');
    assert.equal(
      swc.transformSync('const n: number = 1;', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } }).code.trim(),
      'const n = 1;',
    );
  });
});
