// Screenshots for docs/screenshots/ at 1280x800 in headless Chromium:
// presenter mode (a link with `presenter`, playing) and the first step of
// every guided tour (a link with `tour=ID`). Rerun with
// `bash scripts/screenshots.sh`.
//
//     node tests/web/screenshots.mjs DIST_DIR OUT_DIR
import { readFile, readdir, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { serve, launch } from './serve.mjs';

const [dist = 'dist', out = 'docs/screenshots'] = process.argv.slice(2);
const server = await serve(dist);
const base = server.base;
const browser = await launch();
await mkdir(out, { recursive: true });

const tours = [];
for (const f of (await readdir('assets/tours')).sort()) {
  if (f.endsWith('.json')) {
    tours.push(JSON.parse(await readFile(join('assets/tours', f), 'utf8')).id);
  }
}

async function shot(fragment, file, { play = false, settle = 4000 } = {}) {
  // A fresh context each time: no remembered settings, no service worker.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${base}#${fragment}`);
  await page.waitForFunction(
    () => document.getElementById('routelab-state')?.textContent?.length > 0,
    null,
    { timeout: 120_000 },
  );
  if (play) {
    await page.mouse.click(640, 400);
    await page.keyboard.press('Space');
  }
  await page.waitForTimeout(settle);
  await page.screenshot({ path: join(out, file) });
  await context.close();
  if (errors.length) throw new Error(`${file}: ${errors.join('; ')}`);
  console.log(`wrote ${join(out, file)}`);
}

try {
  await shot('presenter', 'presenter-mode.png', { play: true, settle: 6000 });
  for (const id of tours) {
    await shot(`tour=${id}`, `tour-${id}.png`);
  }
} finally {
  await browser.close();
  await server.close();
}
