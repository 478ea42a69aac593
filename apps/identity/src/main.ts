import { bootstrapService } from '@digicard/server';
import { identityService } from './service.js';

await bootstrapService(identityService);
