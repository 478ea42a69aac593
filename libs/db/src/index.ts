export * from './db.js';
