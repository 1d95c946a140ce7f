// The installable web app works offline after one visit: serve dist/ from a
// server of our own, load the page once (the service worker caches the
// app), stop the server and take the browser offline, reload, and the app
// still starts, a scenario link included.
//
//     node tests/web/offline-test.mjs [DIST_DIR]
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const dist = process.argv[2] ?? 'dist';
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const TYPES = {
  '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.png': 'image/png', '.webmanifest': 'application/manifest+json',
};

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}

const sockets = new Set();
const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
  const file = join(dist, path.endsWith('/') ? `${path}index.html` : path);
  try {
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: [
    '--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync',
    '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  ],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await context.newPage();
const started = () => page.waitForFunction(
  () => document.getElementById('routelab-state')?.textContent?.length > 0,
  null,
  { timeout: 120_000 },
);

try {
  await page.goto(base);
  await started();
  check(true, 'the app starts online');
  // The service worker is installed and has cached the build.
  const cached = await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    for (let i = 0; i < 600 && !navigator.serviceWorker.controller; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const keys = [];
    for (const name of await caches.keys()) {
      for (const req of await (await caches.open(name)).keys()) keys.push(req.url);
    }
    return keys;
  });
  check(cached.some((u) => u.endsWith('.wasm')), `the service worker cached the wasm (${cached.length} files)`);
  check(cached.some((u) => /\.js$/.test(u)), 'the service worker cached the JavaScript glue');
  check(cached.some((u) => u.endsWith('manifest.webmanifest')), 'the manifest is cached');

  // Network off: no server, and the browser offline.
  for (const s of sockets) s.destroy();
  await new Promise((ok) => server.close(ok));
  await context.setOffline(true);
  await page.reload();
  await started();
  const crashed = await page.evaluate(() => getComputedStyle(document.getElementById('crash_text')).display !== 'none');
  check(!crashed, 'offline, the reloaded app starts (no crash message)');

  // A scenario link opens offline too.
  const scenario = { topology: 'torus:4x4', routing: 'dor', load: 0.2 };
  const p2 = await context.newPage();
  await p2.goto(`${base}#scenario=${encodeURIComponent(JSON.stringify(scenario))}`);
  await p2.waitForFunction(
    () => document.getElementById('routelab-state')?.textContent?.includes('torus:4x4'),
    null,
    { timeout: 120_000 },
  );
  check(true, 'offline, a scenario link opens with its scenario');
  const manifest = await page.evaluate(() => document.querySelector('link[rel=manifest]')?.href ?? '');
  check(manifest.endsWith('manifest.webmanifest'), 'the page links its web app manifest');
} catch (e) {
  check(false, `offline test: ${e.message}`);
} finally {
  await browser.close();
  server.close();
}
console.log(failures === 0 ? 'offline: all checks passed' : `offline: ${failures} check(s) failed`);
process.exit(failures === 0 ? 0 : 1);
