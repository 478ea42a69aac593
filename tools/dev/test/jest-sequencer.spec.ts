// The order npm test's files start in (tools/dev/jest-sequencer.cjs): what failed last first, then the slowest by
// Jest's own measure or, on a machine that has not timed a file, by tools/dev/test-durations.json; lanes ranked
// (unit before browser) except in the pool of several lanes, which takes the slowest first whatever its lane.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { afterEach, describe, it } from '@jest/globals';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const require = createRequire(import.meta.url);

interface FakeTest {
  path: string;
  context: { hasteFS: { getSize(path: string): number } };
}
interface Sequencer {
  sort(tests: FakeTest[]): FakeTest[];
  _getCache(test: FakeTest): Record<string, [number, number]>;
}
const LaneSequencer = require(join(ROOT, 'tools/dev/jest-sequencer.cjs')) as new (options: object) => Sequencer;
const committed = (JSON.parse(readFileSync(join(ROOT, 'tools/dev/test-durations.json'), 'utf8')) as { seconds: Record<string, number> })
  .seconds;

/** A sequencer whose cache of Jest's measures (`[0 failed | 1 passed, ms]` by path) is `cache`. */
function sequencer(cache: Record<string, [number, number]>): Sequencer {
  const s = new LaneSequencer({ contexts: [], globalConfig: {} });
  s._getCache = () => cache;
  return s;
}
const test = (relativePath: string, size = 1000): FakeTest => ({
  path: join(ROOT, relativePath),
  context: { hasteFS: { getSize: () => size } },
});
const order = (tests: FakeTest[]) => tests.map((t) => t.path.slice(ROOT.length));

const lane = process.env['DIGICARD_TEST_LANE'];
afterEach(() => {
  if (lane === undefined) delete process.env['DIGICARD_TEST_LANE'];
  else process.env['DIGICARD_TEST_LANE'] = lane;
});

describe('the order of a run’s files', () => {
  it('the committed durations name real files, each with its seconds', () => {
    const entries = Object.entries(committed);
    assert.ok(entries.length > 100, `only ${entries.length} files timed`);
    for (const [path, seconds] of entries) {
      assert.match(path, /\.spec\.tsx?$/);
      assert.ok(seconds >= 0 && seconds < 600, `${path}: ${seconds} s`);
    }
  });

  it('on a machine that has timed nothing, takes the committed durations: the slowest first, those with a system of their own before those on the shared one', () => {
    process.env['DIGICARD_TEST_LANE'] = 'browser';
    const files = Object.keys(committed).filter((p) => p.includes('.browser.') && existsSync(join(ROOT, p)));
    const shares = (p: string) => readFileSync(join(ROOT, p), 'utf8').includes('TestSystem.shared(');
    const sorted = order(sequencer({}).sort(files.map((p) => test(p)))).map((p) => p.slice(1));
    assert.equal(sorted.length, files.length);
    const own = files.filter((p) => !shares(p));
    const onShared = files.filter(shares);
    assert.ok(own.length > 0 && onShared.length > 0, 'browser files of both kinds');
    assert.deepEqual(sorted.slice(0, own.length).sort(), [...own].sort(), 'the files with a system of their own come first');
    for (const group of [sorted.slice(0, own.length), sorted.slice(own.length)]) {
      const seconds = group.map((p) => committed[p] ?? -1);
      assert.deepEqual(
        seconds,
        [...seconds].sort((a, b) => b - a),
      );
    }
  });

  it('prefers Jest’s own measure, puts what failed last first and an untimed file before the timed ones', () => {
    process.env['DIGICARD_TEST_LANE'] = 'system';
    const [slow, fast] = ['apps/gateway/test/accounts.e2e.spec.ts', 'apps/gateway/test/role-sync.e2e.spec.ts'];
    const untimed = 'apps/gateway/test/no-such-file.e2e.spec.ts';
    const failed = 'apps/gateway/test/routes-nowhere.e2e.spec.ts';
    // Measured here: the committed fast one was the slow one this time.
    const cache: Record<string, [number, number]> = {
      [join(ROOT, slow)]: [1, 1_000],
      [join(ROOT, fast)]: [1, 90_000],
      [join(ROOT, failed)]: [0, 10],
    };
    const sorted = order(sequencer(cache).sort([slow, fast, untimed, failed].map((p) => test(p))));
    assert.deepEqual(sorted, [`/${failed}`, `/${untimed}`, `/${fast}`, `/${slow}`]);
  });

  it('ranks the lanes in a run of a project’s lanes, but not in npm test’s pool', () => {
    const files = [
      'libs/contracts/test/contracts.spec.ts',
      'libs/profile-view/test/profile-page.browser.spec.ts',
      'apps/gateway/test/enquiries.e2e.spec.ts',
    ];
    // Both test files with a system of their own (or none), so only the lanes and the times order them here.
    for (const file of files.slice(1)) assert.ok(!readFileSync(join(ROOT, file), 'utf8').includes('TestSystem.shared('), file);
    const cache: Record<string, [number, number]> = Object.fromEntries(
      files.map((p, i): [string, [number, number]] => [join(ROOT, p), [1, [100, 90_000, 50_000][i] ?? 0]]),
    );
    delete process.env['DIGICARD_TEST_LANE'];
    assert.deepEqual(order(sequencer(cache).sort(files.map((p) => test(p)))), [
      '/libs/contracts/test/contracts.spec.ts',
      '/apps/gateway/test/enquiries.e2e.spec.ts',
      '/libs/profile-view/test/profile-page.browser.spec.ts',
    ]);
    process.env['DIGICARD_TEST_LANE'] = 'system,browser';
    assert.deepEqual(order(sequencer(cache).sort(files.map((p) => test(p)))), [
      '/libs/profile-view/test/profile-page.browser.spec.ts',
      '/apps/gateway/test/enquiries.e2e.spec.ts',
      '/libs/contracts/test/contracts.spec.ts',
    ]);
  });

  it('puts the files on the shared system after those with a system of their own, in a lane and in the pool', () => {
    const own = 'apps/gateway/test/enquiries.e2e.spec.ts';
    const onShared = 'apps/gateway/test/staff-console.e2e.spec.ts';
    assert.ok(readFileSync(join(ROOT, onShared), 'utf8').includes('TestSystem.shared('));
    assert.ok(!readFileSync(join(ROOT, own), 'utf8').includes('TestSystem.shared('));
    // The one on the shared system is the slower here: it still comes second.
    const cache: Record<string, [number, number]> = { [join(ROOT, own)]: [1, 1_000], [join(ROOT, onShared)]: [1, 90_000] };
    for (const lanes of ['system', 'system,browser']) {
      process.env['DIGICARD_TEST_LANE'] = lanes;
      assert.deepEqual(order(sequencer(cache).sort([onShared, own].map((p) => test(p)))), [`/${own}`, `/${onShared}`], lanes);
    }
  });
});
