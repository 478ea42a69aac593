export * from './config.js';
export * from './logger.js';
export * from './db-errors.js';
export * from './retry.js';
export * from './tracing.js';
export * from './redis.js';
