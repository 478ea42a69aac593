import { bootstrapService } from '@digicard/server';
import { teamsService } from './service.js';

await bootstrapService(teamsService);
