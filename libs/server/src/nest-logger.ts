import type { LoggerService } from '@nestjs/common';
import { scrubDatabaseText, type Logger } from '@digicard/config';

/** Nest's own messages go through pino as JSON like everything else. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  /** An error Nest caught is logged through the error serializer; text is scrubbed of query parameters. */
  error(message: unknown, trace?: string, context?: string): void {
    if (message instanceof Error) {
      this.logger.error({ context, err: message }, 'unhandled error');
      return;
    }
    this.logger.error({ context, trace: trace === undefined ? undefined : scrubDatabaseText(trace) }, scrubDatabaseText(String(message)));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
