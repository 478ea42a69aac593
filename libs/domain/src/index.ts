export * from './tier-gating.js';
export * from './business-inheritance.js';
export * from './profile-document.js';
