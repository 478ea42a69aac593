import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServiceName } from '@digicard/contracts';
import type { ServiceBaseConfig, ServiceDefinition } from '@digicard/server';
import { REPO_ROOT } from '@digicard/testing';

/**
 * Another app's service definition, as its process starts it, from that app's build (`apps/<name>/dist`): for a
 * test that needs a real service next to the one under test (the gateway's in-process tests, a service that asks
 * another). An app never imports another app's code (the module boundaries), so it is loaded by path, as TestSystem
 * starts the built entry points; the test's Nx target depends on those builds.
 */
export async function builtServiceDefinition(name: ServiceName): Promise<ServiceDefinition<ServiceBaseConfig>> {
  const file = join(REPO_ROOT, `apps/${name}/dist/src/service.js`);
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const exported = module[`${name}Service`];
  // notifications makes a definition per start (its queues); the others are one constant.
  if (typeof exported === 'function') return (exported as () => ServiceDefinition<ServiceBaseConfig>)();
  if (exported && typeof exported === 'object') return exported as ServiceDefinition<ServiceBaseConfig>;
  throw new Error(`${file} exports no ${name}Service: build it first (npx nx run ${name}:build)`);
}
