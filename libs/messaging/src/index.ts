export * from './consumer.js';
export * from './nats.js';
export * from './outbox.js';
export * from './tables.js';
export * from './purge.js';
