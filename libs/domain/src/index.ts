export * from './tier-gating.js';
export * from './business-inheritance.js';
export * from './profile-document.js';
export * from './specials.js';
export * from './plans.js';
export * from './calendar.js';
