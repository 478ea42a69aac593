import { bootstrapService } from '@digicard/server';
import { notificationsService } from './service.js';

await bootstrapService(notificationsService());
