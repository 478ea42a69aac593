export * from './in-process.js';
