export * from './config.js';
export * from './logger.js';
export * from './db-errors.js';
export * from './redis.js';
