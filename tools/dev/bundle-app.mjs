// Bundles a built app into the one file its process runs: `dist/src/entry.js` (tsc's output of `src/entry.ts`, the
// process) becomes `dist/src/main.js`, with the workspace libraries and the pure-JavaScript packages inside it. Run
// by each app's build target after `tsc -b`, in the project's folder: `node ../../tools/dev/bundle-app.mjs`.
//
// Why: a process of ours loads some 2,000 modules, and Node's module loader (resolving, reading package.json files,
// compiling one module at a time) was most of its start. Measured on the gateway (docs/benchmarks.md, "Start-up"):
// importing the app took 1.8 s of CPU and left 298 MiB resident; bundled, 0.7 s and 161 MiB. Every start pays it:
// each pod, and each of the hundreds of processes the system and browser test lanes start.
//
// The bundle sits where tsc's files are (dist/src/), so paths an app finds from its own module (`import.meta.url`:
// the web app's files, the drizzle folder, identity's data) resolve as before. Left outside, loaded from
// node_modules as usual: native addons (argon2, sharp), packages that read their own files at run time (pdfkit's
// fonts), OpenTelemetry (loaded only when tracing is on), pino, and optional modules Nest and pg look for but we do not
// install. tsc's source maps are followed, so `--enable-source-maps` still points into src/.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ownCodeOnly } from './source-map-own-code.mjs';

export const EXTERNAL = [
  'argon2',
  'sharp',
  'pdfkit',
  'pino',
  // BullMQ's optional native MessagePack codec: found beside its own package.
  'msgpackr-extract',
  '@opentelemetry/*',
  // Optional: looked for at run time in a try/catch (Nest's loadPackage, pg's native driver), never installed.
  '@nestjs/websockets',
  '@nestjs/websockets/*',
  '@fastify/*',
  'class-transformer',
  'class-transformer/*',
  'class-validator',
  'pg-native',
  'kafkajs',
  'mqtt',
  'amqplib',
  'amqp-connection-manager',
  '@grpc/grpc-js',
  '@grpc/proto-loader',
  'nats',
  'ioredis/built/*',
];

const cwd = process.cwd();
const entry = join(cwd, 'dist/src/entry.js');
const outfile = join(cwd, 'dist/src/main.js');
if (!existsSync(entry)) {
  console.error(`bundle-app: ${entry} is missing; run tsc -b first (the build target does both)`);
  process.exit(1);
}

const result = await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  external: EXTERNAL,
  // Packages written as CommonJS call require() for Node's own modules and name __dirname/__filename (ioredis to trim
  // error stacks, BullMQ for sandboxed processors we do not use): give the ES module bundle all three. The bundle is
  // refused below if one of its modules declares them too.
  banner: {
    js: [
      "import { createRequire as __bundleRequire } from 'node:module';",
      "import { fileURLToPath as __bundleFileURLToPath } from 'node:url';",
      "import { dirname as __bundleDirname } from 'node:path';",
      'const require = __bundleRequire(import.meta.url);',
      'const __filename = __bundleFileURLToPath(import.meta.url);',
      'const __dirname = __bundleDirname(__filename);',
    ].join(' '),
  },
  sourcemap: 'linked',
  sourcesContent: false,
  keepNames: true,
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});

const inputs = Object.keys(result.metafile.inputs).length;
writeFileSync(`${outfile}.map`, JSON.stringify(ownCodeOnly(JSON.parse(readFileSync(`${outfile}.map`, 'utf8')))));
const declared = /^(?:const|let|var|function|class) (?:require|__filename|__dirname)\b/m.exec(
  readFileSync(outfile, 'utf8').split('\n').slice(1).join('\n'),
);
if (declared) {
  console.error(`bundle-app: a bundled module declares "${declared[0]}" at the top level, which the banner declares too`);
  process.exit(1);
}
console.log(`dist/src/main.js: ${(statSync(outfile).size / 1048576).toFixed(1)} MiB from ${inputs} modules`);
