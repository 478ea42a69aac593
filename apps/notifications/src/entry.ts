import { bootstrapService, startTelemetry } from '@digicard/server';
import { notificationsService } from './service.js';

// Tracing is set up before Nest, so every span of the process has the SDK behind it.
await startTelemetry('notifications');
await bootstrapService(notificationsService());
