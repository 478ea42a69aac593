import { bootstrapService } from '@digicard/server';
import { profilesService } from './service.js';

await bootstrapService(profilesService);
