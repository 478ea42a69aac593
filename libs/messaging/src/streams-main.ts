/**
 * The stream provisioner: declares every JetStream stream of the system (each publishing service's events, each
 * consuming app's dead letters; `provisionStreams`) with `JETSTREAM_REPLICAS` copies, then exits. Run once before the
 * apps start, and again at every deploy (idempotent), as the NATS user `provisioner`, the only user that may declare or
 * change a stream: compose's `nats-streams` service and the Kubernetes Job `nats-streams` run it from the image.
 *
 *   NATS_URL=nats://provisioner:…@host:4222 JETSTREAM_REPLICAS=3 node libs/messaging/dist/src/streams-main.js
 *
 * Nothing secret is logged. Exit codes: 0 done, 78 bad settings, 1 failure (NATS not answering within
 * `PROVISION_TIMEOUT_SECONDS`, 120 by default, or a stream refused).
 */
import { connectNats, jetStreamHandles, natsConnectionOptions, provisionStreams } from './nats.js';

const log = (level: 'info' | 'error' | 'fatal', msg: string, extra: object = {}) =>
  (level === 'info' ? process.stdout : process.stderr).write(`${JSON.stringify({ level, service: 'nats-streams', msg, ...extra })}\n`);

function settings(env: NodeJS.ProcessEnv): { url: string; replicas: number; timeoutMs: number } {
  const url = env['NATS_URL'];
  if (!url) throw new Error('NATS_URL is required (the provisioner user, e.g. nats://provisioner:…@nats:4222)');
  natsConnectionOptions(url);
  const replicas = Number(env['JETSTREAM_REPLICAS'] ?? '1');
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 5) throw new Error('JETSTREAM_REPLICAS must be 1-5');
  const timeoutSeconds = Number(env['PROVISION_TIMEOUT_SECONDS'] ?? '120');
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new Error('PROVISION_TIMEOUT_SECONDS must be a positive number');
  return { url, replicas, timeoutMs: timeoutSeconds * 1000 };
}

let parsed: ReturnType<typeof settings>;
try {
  parsed = settings(process.env);
} catch (error) {
  log('fatal', `bad settings: ${(error as Error).message}`);
  process.exit(78);
}
const timeout = setTimeout(() => {
  log('error', `streams not provisioned: NATS did not answer within ${parsed.timeoutMs / 1000} s`);
  process.exit(1);
}, parsed.timeoutMs);
try {
  const nc = await connectNats(parsed.url, 'nats-streams');
  const { jsm } = await jetStreamHandles(nc);
  const streams = await provisionStreams(jsm, parsed.replicas);
  await nc.drain();
  clearTimeout(timeout);
  log('info', 'streams ready', { replicas: parsed.replicas, streams: streams.map((s) => `${s.name} ${s.result}`) });
} catch (error) {
  log('error', 'streams not provisioned', { error: (error as Error).message });
  process.exit(1);
}
