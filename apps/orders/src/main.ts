import { bootstrapService } from '@digicard/server';
import { ordersService } from './service.js';

await bootstrapService(ordersService);
