export * from './in-process.js';
export * from './built-service.js';
