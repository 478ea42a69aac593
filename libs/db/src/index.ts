export * from './db.js';
export * from './roles.js';
