// The clean-up of a shared TestSystem (`TestSystem.shared`), started by it as a detached process whose stdin is a pipe
// from the Jest worker: the worker writes a JSON line with the system's process ids whenever they change, and when the
// worker is gone (its end of the pipe closes, whether it exited, was ended with SIGTERM or killed), this kills those
// processes and drops the system's database, Redis keys and NATS store. Done here rather than in the worker's exit
// handler: a fork of a Jest worker's process there took about 400 ms, past jest-worker's 500 ms for a worker to exit.
//   argv[2]: { postgresUrl, database, redisUrl, redisPrefix, storeDir }   stdin: { "pids": [...] } lines
import { rmSync } from 'node:fs';
import pg from 'pg';
import { dropRedisKeys } from './system.js';

interface Owned {
  postgresUrl: string;
  database: string;
  redisUrl: string;
  redisPrefix: string;
  storeDir: string;
}
const owned = JSON.parse(process.argv[2] ?? '{}') as Partial<Owned>;
if (!owned.postgresUrl || !owned.database || !owned.redisUrl || !owned.redisPrefix || !owned.storeDir)
  throw new Error('system-watchdog: give {postgresUrl, database, redisUrl, redisPrefix, storeDir}');
const { postgresUrl, database, redisUrl, redisPrefix, storeDir } = owned as Owned;
let pids: number[] = [];
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
    pids = (JSON.parse(pending.slice(0, end)) as { pids: number[] }).pids;
    pending = pending.slice(end + 1);
  }
});
process.stdin.once('close', () => void cleanUp());

async function cleanUp(): Promise<void> {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.end();
  await dropRedisKeys(redisUrl, redisPrefix);
  rmSync(storeDir, { recursive: true, force: true });
}
