// Public profile page throughput and weight. Starts the real system the way the tests do, builds a full sample
// profile, then loads the page through the gateway and, in the same run, from a bare Node `http` server answering
// the very same bytes. Load comes from wrk (Debian's package) in its own process. Writes docs/benchmarks.md.
// Run: `npx nx run-many -t build && node tools/bench/public-page.mjs` (DURATION=15 CONNECTIONS=32 to change).
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { ProfileDefaults } from '../../libs/contracts/dist/src/index.js';
import { REPO_ROOT, TestSystem, freePort, registerOwner, setMembership } from '../../libs/testing/dist/src/index.js';

const DURATION = Number(process.env.DURATION ?? 15);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const LOG_LEVEL = process.env.GATEWAY_LOG_LEVEL ?? 'info';

try {
  execFileSync('wrk', ['--version'], { stdio: 'ignore' });
} catch (error) {
  if (error.code === 'ENOENT') throw new Error('wrk is missing: apt-get install -y wrk');
}

// Asynchronous, so that the bare server in this very process can answer while wrk runs.
async function wrk(url) {
  const { stdout: out } = await promisify(execFile)('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${DURATION}s`, '--latency', '-H', 'Accept-Encoding: gzip', url], { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const pct = (p) => /(\d+\.\d+)(us|ms|s)/.exec(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '');
  const ms = (m) => (m ? Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]] : NaN);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  return { rps, p50: ms(pct(50)), p99: ms(pct(99)), non2xx, raw: out };
}

const system = await TestSystem.start({
  apps: ['mail-catcher', 'identity', 'profiles', 'notifications', 'gateway'],
  env: { gateway: { LOG_LEVEL } },
});
let bare;
try {
  const owner = await registerOwner(system, { username: 'thabo', firstName: 'Thabo', lastName: 'Mokoena', email: 'thabo@example.co.za' });
  await setMembership(system, 'thabo', 'DigiGold');
  const photo = (w, h, r) => sharp({ create: { width: w, height: h, channels: 3, background: { r, g: 110, b: 150 } } }).jpeg().toBuffer();
  const upload = async (purpose, data) =>
    (await owner.client.request(`/api/profile/images/${purpose}`, { method: 'POST', raw: data, headers: { 'content-type': 'image/jpeg' } })).body.url;
  const document = {
    ...ProfileDefaults,
    profileImage: await upload('profileImage', await photo(1200, 1200, 200)),
    profileBackground: await upload('profileBackground', await photo(1600, 600, 40)),
    businessLogo: await upload('businessLogo', await photo(400, 400, 90)),
    title: 'Sales Director',
    businessName: 'Mokoena Solar',
    tel: '082 123 4567',
    profileBio: 'Twenty years of solar installations across the Karoo and the Garden Route.',
    websiteLinks: [{ buttonName: 'Our website', url: 'https://mokoena.co.za' }, { buttonName: 'Book a site visit', url: 'https://mokoena.co.za/book' }],
    socialLinks: [{ platform: 'linkedin', url: 'https://www.linkedin.com/in/thabo' }, { platform: 'facebook', url: 'https://www.facebook.com/mokoenasolar' }, { platform: 'whatsapp', url: 'https://wa.me/27821234567' }],
    videoLink: 'https://youtu.be/dQw4w9WgXcQ',
    gallery: [{ imageUrl: await upload('gallery', await photo(1600, 1200, 120)) }, { imageUrl: await upload('gallery', await photo(1600, 1200, 160)) }],
    products: [{ name: 'Solar kit', link: 'https://mokoena.co.za/kit', imageUrl: await upload('product', await photo(800, 800, 60)) }],
  };
  const saved = await owner.client.request('/api/profile', { method: 'PUT', body: { document } });
  if (saved.status !== 200) throw new Error(`could not save the sample profile: ${JSON.stringify(saved.body)}`);

  const pageUrl = `${system.gatewayUrl}/thabo`;
  const page = await fetch(pageUrl);
  const html = Buffer.from(await page.arrayBuffer());
  const headers = { 'content-type': page.headers.get('content-type') };

  // Page weight: what a phone downloads for the first view (gzip where the server compresses).
  const htmlGz = gzipSync(html).length;
  const scriptPath = /<script src="([^"]+profile-page\.js[^"]*)"/.exec(html.toString())?.[1];
  const script = Buffer.from(await (await fetch(`${system.gatewayUrl}${scriptPath}`)).arrayBuffer());
  const images = [...new Set([...html.toString().matchAll(/src="(\/media\/[^"]+)"/g)].map((m) => m[1]))];
  const imageSizes = await Promise.all(images.map(async (src) => (await (await fetch(`${system.gatewayUrl}${src}`)).arrayBuffer()).byteLength));
  const css = /<style[^>]*>([\s\S]*?)<\/style>/.exec(html.toString())?.[1] ?? '';

  const barePort = await freePort();
  bare = createServer((req, res) => {
    res.writeHead(200, headers);
    res.end(html);
  });
  await new Promise((r) => bare.listen(barePort, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${barePort}/thabo`;

  await wrk(pageUrl); // warm-up (caches, JIT)
  await wrk(bareUrl);
  const gateway = await wrk(pageUrl);
  const node = await wrk(bareUrl);
  const ratio = gateway.rps / node.rps;
  const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
  const cpu = execFileSync('sh', ['-c', "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], { encoding: 'utf8' }).trim();
  const report = `# Benchmarks

## Public profile page \`/{username}\`

Measured by \`node tools/bench/public-page.mjs\` on ${new Date().toISOString().slice(0, 10)}: this 2-core machine (${cpu}), Node ${process.version},
wrk with 1 thread and ${CONNECTIONS} connections for ${DURATION} s per run, gzip accepted, after a warm-up run. The gateway runs
with LOG_LEVEL=${LOG_LEVEL}${LOG_LEVEL === 'info' ? ' (one JSON log line per request)' : ' (no request log)'} alongside every other service and the load generator on the
same two cores. The bare server is a plain Node \`http\` server in the benchmark process answering the very same bytes
(${html.length} bytes of HTML, not compressed), measured in the same run.

| server | requests/s | p50 latency | p99 latency | non-2xx |
|---|---|---|---|---|
| gateway (cached page, gzipped once: routing, session check, security headers, request log, batched view count) | ${gateway.rps.toFixed(0)} | ${gateway.p50.toFixed(2)} ms | ${gateway.p99.toFixed(2)} ms | ${gateway.non2xx} |
| bare Node \`http\`, same bytes | ${node.rps.toFixed(0)} | ${node.p50.toFixed(2)} ms | ${node.p99.toFixed(2)} ms | ${node.non2xx} |

Gateway / bare ratio: **${(ratio * 100).toFixed(1)} %** of the bare server's throughput.

## Public page weight (full sample profile: photo, cover, logo, 2 gallery images, 1 product, 3 social links, video)

| part | bytes |
|---|---|
| HTML (with the inline CSS and the data), gzip | ${kb(htmlGz)} (${kb(html.length)} uncompressed) |
| CSS (inline, part of the HTML above) | ${kb(Buffer.byteLength(css))} uncompressed |
| JS (\`profile-page.js\`, the only script), gzip | ${kb(gzipSync(script).length)} (${kb(script.length)} uncompressed) |
| images (${images.length} WebP files, re-encoded on upload; gallery and products lazy-loaded) | ${kb(imageSizes.reduce((a, b) => a + b, 0))} |
| the video | a lazy privacy-mode YouTube frame: nothing loads until it scrolls into view |
`;
  writeFileSync(join(REPO_ROOT, 'docs', 'benchmarks.md'), report);
  process.stdout.write(report);
} finally {
  bare?.close();
  await system.stop();
}
