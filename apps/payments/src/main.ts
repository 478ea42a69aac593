import { bootstrapService } from '@digicard/server';
import { paymentsService } from './service.js';

await bootstrapService(paymentsService);
