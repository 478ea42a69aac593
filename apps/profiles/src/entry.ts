import { bootstrapService, startTelemetry } from '@digicard/server';
import { profilesService } from './service.js';

// Tracing is set up before Nest, so every span of the process has the SDK behind it.
await startTelemetry('profiles');
await bootstrapService(profilesService);
