/** Injection tokens for what the service core provides. */
export const CONFIG = Symbol('CONFIG');
export const LOGGER = Symbol('LOGGER');
export const PG_POOL = Symbol('PG_POOL');
export const DATABASE = Symbol('DATABASE');
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
export const JETSTREAM = Symbol('JETSTREAM');
export const OUTBOX_RELAY = Symbol('OUTBOX_RELAY');
export const HEALTH = Symbol('HEALTH');
