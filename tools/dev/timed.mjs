// `node tools/dev/timed.mjs <result.json> <command> [args...]`: runs the command, then writes its exit code, wall
// seconds and CPU seconds (of everything it ran and waited for, from this process's children times in /proc) to the
// result file. `npm test` runs its lanes through this, side by side, and reports each lane's times.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const [resultFile, cmd, ...args] = process.argv.slice(2);
if (!resultFile || !cmd) {
  process.stderr.write('usage: timed.mjs <result.json> <command> [args...]\n');
  process.exit(2);
}
const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
const started = Date.now();
const result = spawnSync(cmd, args, { stdio: 'inherit' });
// After the name in /proc/self/stat: state is field 3, cutime 16 and cstime 17 (proc(5)).
const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
const cpuSeconds = (Number(fields[13]) + Number(fields[14])) / ticks;
const status = result.error ? 127 : (result.status ?? 1);
writeFileSync(resultFile, JSON.stringify({ status, wallSeconds: (Date.now() - started) / 1000, cpuSeconds }));
process.exit(status);
