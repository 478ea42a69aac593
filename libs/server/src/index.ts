export * from './bootstrap.js';
export * from './context.js';
export * from './core.module.js';
export * from './health.js';
export * from './nest-logger.js';
export * from './rpc.js';
export * from './tokens.js';
export * from './rpc-client.js';
