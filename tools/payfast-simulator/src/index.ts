export { createSimulator, type PayFastSimulator, type SimulatorOptions } from './simulator.js';
export { ConfigSchema, loadSimulatorConfig, SANDBOX_MERCHANT_ID, SANDBOX_MERCHANT_KEY, type Config } from './config.js';
export type { ItnRecord, Payment, Store, Subscription } from './store.js';
export { formatRand } from './money.js';
