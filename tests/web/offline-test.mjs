// The installable web app works offline after one visit: serve dist/ from a
// server of our own, load the page once (the service worker caches the
// app), stop the server and take the browser offline, reload, and the app
// still starts, a scenario link included.
//
//     node tests/web/offline-test.mjs [DIST_DIR]
import { serve, launch } from './serve.mjs';

const dist = process.argv[2] ?? 'dist';

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}

const server = await serve(dist);
const base = server.base;
const browser = await launch();
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
  await server.close();
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
