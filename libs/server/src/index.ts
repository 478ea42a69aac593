export * from './bootstrap.js';
export * from './context.js';
export * from './core.module.js';
export * from './health.js';
export * from './nest-logger.js';
export * from './rpc.js';
export * from './tokens.js';
export * from './rpc-client.js';
export * from './consume.js';
export * from './handles.js';
export * from './email-token.js';
export * from './vcard.js';
export * from './queue-producer.js';
export * from './interval-task.js';
// The retry helper lives in libs/config, beneath libs/db and libs/messaging, which use it too.
export { retry, type RetryOptions } from '@digicard/config';
export * from './telemetry.js';
export * from './metrics.js';
export * from './paging.js';
