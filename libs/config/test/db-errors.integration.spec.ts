import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { createLogger, scrubDatabaseText } from '../src/index.js';

const DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECRET = 'thabo.secret@example.co.za';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger('test', 'info', stream), text: () => lines.join('') };
}

/** Real errors from the real PostgreSQL, whose messages quote the parameters sent with the query. */
describe('database errors in the logs: code and constraint, never the message with the parameters', () => {
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  const table = `log_probe_${process.pid}`;
  beforeAll(async () => {
    await pool.query(`CREATE TEMP TABLE IF NOT EXISTS ${table} (email text CONSTRAINT ${table}_email_key UNIQUE)`);
  });
  afterAll(() => pool.end());

  async function failure(run: () => Promise<unknown>): Promise<unknown> {
    try {
      await run();
    } catch (error) {
      return error;
    }
    throw new Error('the query did not fail');
  }

  it('logs a pg error (a duplicate key) by its code and constraint', async () => {
    const client = await pool.connect();
    try {
      await client.query(`CREATE TEMP TABLE ${table}_k (email text CONSTRAINT ${table}_k_email_key UNIQUE)`);
      await client.query(`INSERT INTO ${table}_k VALUES ($1)`, [SECRET]);
      const error = await failure(() => client.query(`INSERT INTO ${table}_k VALUES ($1)`, [SECRET]));
      assert.match(
        JSON.stringify({ detail: (error as { detail?: string }).detail }),
        new RegExp(SECRET.replace(/\./g, '\\.')),
        'PostgreSQL quotes the value',
      );
      const { logger, text } = capture();
      logger.error({ err: error }, 'saving failed');
      assert.doesNotMatch(text(), /thabo\.secret/);
      const line = JSON.parse(text()) as { err: { code: string; constraint: string; message: string } };
      assert.equal(line.err.code, '23505');
      assert.equal(line.err.constraint, `${table}_k_email_key`);
      assert.match(line.err.message, /23505/);
    } finally {
      client.release();
    }
  });

  it('logs drizzle’s failed query without its parameters, and the cause by its code', async () => {
    const db = drizzle(pool);
    const error = await failure(() => db.execute(sql`SELECT ${SECRET}::uuid`));
    assert.match((error as Error).message, /thabo\.secret/, 'drizzle quotes the parameters in its message');
    const { logger, text } = capture();
    logger.warn({ err: new Error('could not store the lead', { cause: error }) }, 'handler failed');
    logger.error({ error }, 'query failed');
    assert.doesNotMatch(text(), /thabo\.secret/);
    assert.match(text(), /22P02/);
    assert.match(text(), /could not store the lead/, 'our own message is kept');
  });

  it('scrubs the parameters out of text that quotes a failed query (Nest’s log lines)', () => {
    const text = `Failed query: insert into "leads" ("email") values ($1)\nparams: ${SECRET}\n    at x (y.js:1:1)`;
    assert.doesNotMatch(scrubDatabaseText(text), /thabo\.secret/);
    assert.doesNotMatch(scrubDatabaseText(`Key (email)=(${SECRET}) already exists.`), /thabo\.secret/);
    assert.doesNotMatch(scrubDatabaseText(`invalid input syntax for type uuid: "${SECRET}"`), /thabo\.secret/);
  });
});
