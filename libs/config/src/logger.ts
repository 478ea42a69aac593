import { pino, type Logger, type LoggerOptions } from 'pino';
import { serializeError } from './db-errors.js';
import { activeSpanIds } from './tracing.js';

export type { Logger } from 'pino';

/** Values that must never reach a log line, wherever they sit in a logged object. */
export const REDACTED_PATHS = [
  'password',
  'currentPassword',
  'newPassword',
  'token',
  'sessionId',
  'secret',
  'passphrase',
  'authorization',
  'cookie',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.token',
  '*.sessionId',
  '*.secret',
  '*.passphrase',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/** JSON logs, one line per event, with the service name on every line. */
export function createLogger(service: string, level: string = 'info', destination?: pino.DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // Database errors are logged by their code and constraint, never their message (it can carry the parameters).
    serializers: { err: serializeError, error: serializeError, cause: serializeError },
    formatters: { level: (label) => ({ level: label }) },
    // Inside a span, every line names its trace and span: one user action's lines, across processes, share a trace_id.
    mixin: () => activeSpanIds() ?? {},
  };
  return destination ? pino(options, destination) : pino(options);
}
