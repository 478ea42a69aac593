import { ConfigError } from '@digicard/config';
import { loadSimulatorConfig, type Config } from './config.js';
import { createSimulator } from './simulator.js';

const log = (level: string, msg: string, extra: Record<string, unknown> = {}) =>
  process.stdout.write(`${JSON.stringify({ level, service: 'payfast-simulator', ...extra, msg })}\n`);

let config: Config;
try {
  config = loadSimulatorConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(78);
}

const simulator = await createSimulator({
  host: config.HOST,
  port: config.PORT,
  merchantId: config.MERCHANT_ID,
  merchantKey: config.MERCHANT_KEY,
  passphrase: config.PASSPHRASE,
  publicUrl: config.PUBLIC_URL,
}).catch((error: Error) => {
  // Typically EADDRINUSE: say which port, not a stack trace.
  log('fatal', `cannot listen on ${config.HOST}:${config.PORT}: ${error.message}`);
  process.exit(1);
});
log('info', 'PayFast simulator started', {
  url: simulator.url,
  port: simulator.port,
  merchantId: config.MERCHANT_ID,
  passphrase: config.PASSPHRASE !== undefined,
});

const stop = (signal: string) => {
  log('info', `${signal}: stopping`);
  void simulator.close().then(() => process.exit(0));
};
process.once('SIGTERM', () => stop('SIGTERM'));
process.once('SIGINT', () => stop('SIGINT'));
