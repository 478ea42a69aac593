import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { selectServers, serverUrls, type Facts } from '../select-servers.mjs';

const none = { postgres: false, redis: false, nats: false };
const all = { postgres: true, redis: true, nats: true };
const facts = (given: Partial<Facts>): Facts => ({
  purpose: 'start',
  env: {},
  answers: none,
  startable: none,
  containers: false,
  ...given,
});

const START_DB = 'postgres://postgres@127.0.0.1:5432/digicard';
const TEST_DB = 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = 'redis://127.0.0.1:6379';
const NATS = 'nats://127.0.0.1:4222';

describe('where npm start and npm test get PostgreSQL, Redis and NATS', () => {
  it('looks at the configured URL of its own command, else the usual local port', () => {
    const env = { DATABASE_URL: 'postgres://app@db.internal:6543/cards', TEST_REDIS_URL: 'redis://cache.internal:6380' };
    assert.deepEqual(serverUrls('start', env), {
      postgres: { url: 'postgres://app@db.internal:6543/cards', configured: true },
      redis: { url: REDIS, configured: false },
      nats: { url: NATS, configured: false },
    });
    assert.deepEqual(serverUrls('test', env), {
      postgres: { url: TEST_DB, configured: false },
      redis: { url: 'redis://cache.internal:6380', configured: true },
      nats: { url: NATS, configured: false },
    });
  });

  it('uses configured URLs that answer, before local servers and containers', () => {
    const env = {
      DATABASE_URL: 'postgres://app@db.internal:6543/cards',
      REDIS_URL: 'redis://cache.internal:6380',
      NATS_URL: 'nats://bus.internal:4333',
    };
    assert.deepEqual(selectServers(facts({ env, answers: all, startable: all, containers: true })), {
      postgres: { source: 'configured', url: 'postgres://app@db.internal:6543/cards' },
      redis: { source: 'configured', url: 'redis://cache.internal:6380' },
      nats: { source: 'configured', url: 'nats://bus.internal:4333' },
    });
    const forTests = selectServers(
      facts({ purpose: 'test', env: { TEST_DATABASE_URL: 'postgres://ci@pg:5432/postgres' }, answers: all, startable: all }),
    );
    assert.deepEqual(forTests.postgres, { source: 'configured', url: 'postgres://ci@pg:5432/postgres' });
  });

  it('never replaces a configured URL that does not answer: it names it, even where a local server or Docker would do', () => {
    const choice = selectServers(
      facts({
        env: { DATABASE_URL: 'postgres://app@db.internal:6543/cards', REDIS_URL: 'redis://cache.internal:6380' },
        answers: { postgres: false, redis: false, nats: true },
        startable: all,
        containers: true,
      }),
    );
    assert.deepEqual(choice.postgres, {
      source: 'missing',
      problem: 'PostgreSQL does not answer at DATABASE_URL=postgres://app@db.internal:6543/cards',
    });
    assert.deepEqual(choice.redis, { source: 'missing', problem: 'Redis does not answer at REDIS_URL=redis://cache.internal:6380' });
    assert.deepEqual(choice.nats, { source: 'local', url: NATS, start: false });
    const forTests = selectServers(
      facts({
        purpose: 'test',
        env: { TEST_REDIS_URL: 'redis://cache.internal:6380' },
        answers: { postgres: true, redis: false, nats: false },
        startable: all,
        containers: true,
      }),
    );
    assert.deepEqual(forTests.redis, { source: 'missing', problem: 'Redis does not answer at TEST_REDIS_URL=redis://cache.internal:6380' });
  });

  it('uses the local servers that answer, without starting them or asking Docker (our machines)', () => {
    assert.deepEqual(selectServers(facts({ answers: all, startable: all, containers: true })), {
      postgres: { source: 'local', url: START_DB, start: false },
      redis: { source: 'local', url: REDIS, start: false },
      nats: { source: 'local', url: NATS, start: false },
    });
    const forTests = selectServers(facts({ purpose: 'test', answers: all, startable: all }));
    assert.deepEqual(forTests.postgres, { source: 'local', url: TEST_DB, start: false });
    assert.deepEqual(forTests.redis, { source: 'local', url: REDIS, start: false });
  });

  it('starts an installed local server that is down rather than running a container', () => {
    assert.deepEqual(selectServers(facts({ startable: all, containers: true })), {
      postgres: { source: 'local', url: START_DB, start: true },
      redis: { source: 'local', url: REDIS, start: true },
      nats: { source: 'local', url: NATS, start: true },
    });
  });

  it('runs every server in a container when only Docker is installed', () => {
    assert.deepEqual(selectServers(facts({ containers: true })), {
      postgres: { source: 'container' },
      redis: { source: 'container' },
      nats: { source: 'container' },
    });
    assert.deepEqual(selectServers(facts({ purpose: 'test', containers: true })), {
      postgres: { source: 'container' },
      redis: { source: 'container' },
      nats: { source: 'container' },
    });
  });

  it('falls back to the embedded PostgreSQL for npm start only, after containers', () => {
    assert.deepEqual(selectServers(facts({ answers: { postgres: false, redis: true, nats: true } })).postgres, {
      source: 'embedded',
      url: START_DB,
    });
    assert.deepEqual(selectServers(facts({ answers: { postgres: false, redis: true, nats: true }, containers: true })).postgres, {
      source: 'container',
    });
    const forTests = selectServers(
      facts({
        purpose: 'test',
        answers: { postgres: false, redis: true, nats: false },
        startable: { postgres: false, redis: false, nats: true },
      }),
    );
    assert.equal(forTests.postgres.source, 'missing');
  });

  it('names what to install when nothing can provide a server', () => {
    assert.deepEqual(selectServers(facts({})), {
      postgres: { source: 'embedded', url: START_DB },
      redis: {
        source: 'missing',
        problem:
          'Redis does not answer at 127.0.0.1:6379 and could not be started (apt-get install redis-server, or install Docker, or set REDIS_URL)',
      },
      nats: {
        source: 'missing',
        problem:
          'NATS does not answer at 127.0.0.1:4222 and could not be started (apt-get install nats-server, or install Docker, or set NATS_URL)',
      },
    });
    assert.deepEqual(selectServers(facts({ purpose: 'test' })), {
      postgres: {
        source: 'missing',
        problem:
          'PostgreSQL does not answer at 127.0.0.1:5432 and could not be started (apt-get install postgresql, or install Docker, or set TEST_DATABASE_URL)',
      },
      redis: {
        source: 'missing',
        problem:
          'Redis does not answer at 127.0.0.1:6379 and could not be started (apt-get install redis-server, or install Docker, or set TEST_REDIS_URL)',
      },
      nats: {
        source: 'missing',
        problem:
          'the tests start their own NATS servers, but nats-server is not installed and no Docker engine answers (apt-get install nats-server, or install Docker)',
      },
    });
  });

  it('mixes sources server by server', () => {
    const choice = selectServers(
      facts({ env: { NATS_URL: 'nats://bus.internal:4333' }, answers: { postgres: true, redis: false, nats: true }, containers: true }),
    );
    assert.deepEqual(choice, {
      postgres: { source: 'local', url: START_DB, start: false },
      redis: { source: 'container' },
      nats: { source: 'configured', url: 'nats://bus.internal:4333' },
    });
    const forTests = selectServers(
      facts({
        purpose: 'test',
        answers: { postgres: false, redis: true, nats: false },
        startable: { postgres: true, redis: false, nats: false },
        containers: true,
      }),
    );
    assert.deepEqual(forTests, {
      postgres: { source: 'local', url: TEST_DB, start: true },
      redis: { source: 'local', url: REDIS, start: false },
      nats: { source: 'container' },
    });
  });

  describe("the tests' NATS: one per test file, from the program or a container", () => {
    it('uses the installed nats-server whether or not a shared NATS answers', () => {
      assert.deepEqual(selectServers(facts({ purpose: 'test', answers: all, startable: all })).nats, { source: 'local' });
      assert.deepEqual(
        selectServers(facts({ purpose: 'test', startable: { postgres: false, redis: false, nats: true }, containers: true })).nats,
        { source: 'local' },
      );
    });

    it('does not take a shared NATS that answers for a private one when the program is missing', () => {
      assert.equal(selectServers(facts({ purpose: 'test', answers: all, containers: true })).nats.source, 'container');
      assert.equal(selectServers(facts({ purpose: 'test', answers: all })).nats.source, 'missing');
    });

    it('refuses TEST_NATS_URL instead of ignoring it', () => {
      const choice = selectServers(
        facts({ purpose: 'test', env: { TEST_NATS_URL: NATS }, answers: all, startable: all, containers: true }),
      );
      assert.deepEqual(choice.nats, {
        source: 'missing',
        problem:
          'TEST_NATS_URL is set, but the tests cannot share a NATS server: each test file starts its own (nats-server, or a container); unset TEST_NATS_URL',
      });
    });
  });
});
