import { migrationsFolderOf } from '@digicard/db';
import type { ServiceDefinition } from '@digicard/server';
import { CatalogueModule } from './catalogue/catalogue.module.js';
import { ConfigSchema, type Config } from './config.js';
import { outbox, processedMessages } from './db/schema.js';
import { EnquiriesModule } from './enquiries/enquiries.module.js';
import { FulfilmentModule } from './fulfilment/fulfilment.module.js';
import { openProofQueue, ProofQueue } from './fulfilment/proof.producer.js';
import { ProofRequeue } from './fulfilment/workers/proof-requeue.worker.js';
import { startProofWorker } from './fulfilment/workers/proof-render.worker.js';
import { RenderProof } from './fulfilment/use-cases/render-proof.use-case.js';
import { OrdersModule } from './orders/orders.module.js';

/**
 * The orders service, as its process and its in-process tests start it: the catalogue, checkout, enquiries, and the
 * print side (proofs on the `proof-render` queue, whose worker runs in this process once it answers RPCs).
 */
export const ordersService: ServiceDefinition<Config> = {
  service: 'orders',
  configSchema: ConfigSchema,
  migrationsFolder: migrationsFolderOf(import.meta.url),
  outbox,
  processedMessages,
  imports: (ctx) => [EnquiriesModule, CatalogueModule, OrdersModule, FulfilmentModule.register(ctx, openProofQueue(ctx))],
  afterStart: (app, ctx) => {
    startProofWorker(ctx, app.get(RenderProof), app.get(ProofQueue));
    app.get(ProofRequeue).start();
    return Promise.resolve();
  },
};
