// A first-time user's walk through every preset, in headless Chromium at
// 1280x800: each preset opens from its share link, plays for a few
// seconds, and is photographed for a person to look at; the walk fails on
// a page error and prints what the page says about each run (the status
// bar's text is in the app's accessibility state).
//
//     trunk build --release=true index.html
//     node tests/web/presets-walk.mjs dist target/preset-walk
import { readFile, readdir, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { serve, launch } from './serve.mjs';

const [dist = 'dist', out = 'target/preset-walk'] = process.argv.slice(2);
const server = await serve(dist);
const browser = await launch();
await mkdir(out, { recursive: true });

const failures = [];
try {
  for (const f of (await readdir('assets/scenarios')).sort()) {
    if (!f.endsWith('.json')) continue;
    const scenario = JSON.parse(await readFile(join('assets/scenarios', f), 'utf8'));
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const fragment = `scenario=${encodeURIComponent(JSON.stringify(scenario))}`;
    await page.goto(`${server.base}#${fragment}`);
    await page.waitForFunction(
      () => document.getElementById('routelab-state')?.textContent?.length > 0,
      null,
      { timeout: 120_000 },
    );
    await page.mouse.click(640, 400);
    await page.keyboard.press('Space');
    await page.waitForTimeout(5000);
    const png = join(out, f.replace('.json', '.png'));
    await page.screenshot({ path: png });
    const state = await page.evaluate(() => document.getElementById('routelab-state')?.textContent ?? '');
    await context.close();
    console.log(`${f}: ${state.slice(0, 300)}`);
    if (errors.length) failures.push(`${f}: ${errors.join('; ')}`);
  }
} finally {
  await browser.close();
  await server.close();
}
if (failures.length) {
  console.error(failures.join('\n'));
  process.exit(1);
}
