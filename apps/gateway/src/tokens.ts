export const NATS_CLIENT = Symbol('NATS_CLIENT');
export const REDIS = Symbol('REDIS');
