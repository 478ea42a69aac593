export * from './browser.js';
export * from './infra.js';
export * from './mail.js';
export * from './system.js';
export * from './client.js';
export * from './accounts.js';
export * from './authorization-matrix.js';
export * from './xss-corpus.js';
