// Real-browser test of the routelab web build, in Debian's headless Chromium
// through playwright-core. Usage: node browser-test.mjs URL [--fps]
//
// Checks: the canvas drew (the screenshot is not blank), no panic or page
// error reached the console, the scenario in the URL is the one the app
// shows (the hidden #routelab-state element and the title), playing
// advances the cycle, and a malformed link shows a message, not a crash.
// Native equals web: every scenario of digest-scenarios.json runs inside
// the page (a `#scenario=...&digest` link) and its digest of every counter
// and per-channel value must equal what the native CLI prints for the same
// scenario and seed (`routelab sim --scenario FILE --digest`, the binary in
// $ROUTELAB_BIN); a mismatch names the first field that differs.
// With --rate: simulated cycles per second while playing inside a long
// warm-up (which runs as fast as it goes, 90 ms of stepping per frame) on
// the native app's measured scenarios (docs/performance.md): torus:8x8 at
// load 0.3 with 4-flit packets and torus:32x32 at load 0.1, DOR, uniform.
// With --fps: frames per second (requestAnimationFrame) while playing
// torus:8x8 and torus:16x16 on a 1280x800 page, and torus:8x8 on 960x600 and
// 640x400 pages (a software rasteriser's cost grows with the pixels).
import { launch } from './serve.mjs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const base = process.argv[2] ?? 'http://127.0.0.1:8765/';
const measureFps = process.argv.includes('--fps');
const measureRate = process.argv.includes('--rate');

let failures = 0;
let passes = 0;
function check(ok, what) {
  if (ok) {
    passes++;
    console.log(`ok   ${what}`);
  } else {
    failures++;
    console.log(`FAIL ${what}`);
  }
}

// Playwright gives the browser a fresh temporary profile of its own.
const browser = await launch();

function scenarioUrl(scenario) {
  return `${base}#scenario=${encodeURIComponent(JSON.stringify(scenario))}`;
}

async function openPage(url, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => {
    const t = m.text();
    if (m.type() === 'error' || /panick?ed/i.test(t)) problems.push(`console ${m.type()}: ${t}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(url);
  await page.waitForFunction(
    () => document.getElementById('routelab-state')?.textContent?.length > 0,
    null,
    { timeout: 120_000 },
  );
  return { context, page, problems };
}

async function state(page) {
  return page.evaluate(() => {
    const el = document.getElementById('routelab-state');
    return { json: JSON.parse(el.textContent), cycle: Number(el.dataset.cycle ?? '0'), title: document.title };
  });
}

// Count distinct colours of a screenshot, decoding it in the page.
async function distinctColours(page) {
  const png = (await page.screenshot()).toString('base64');
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 4 * 7) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  }, png);
}

// Frames per second (requestAnimationFrame callbacks) over `seconds`, and the
// median of the app's own time per frame (`data-frame-cpu-ms`, eframe's
// measure of the app's `ui`: simulation, UI building and tessellation, not
// rasterising) sampled at every frame.
async function frameStats(page, seconds) {
  return page.evaluate((s) => new Promise((resolve) => {
    let frames = 0;
    const cpu = [];
    const el = document.getElementById('routelab-state');
    const start = performance.now();
    function tick(t) {
      frames++;
      const ms = Number(el.dataset.frameCpuMs);
      if (Number.isFinite(ms)) cpu.push(ms);
      if (t - start < s * 1000) requestAnimationFrame(tick);
      else {
        cpu.sort((a, b) => a - b);
        resolve({ fps: frames / ((t - start) / 1000), cpuMs: cpu.length ? cpu[cpu.length >> 1] : NaN });
      }
    }
    requestAnimationFrame(tick);
  }), seconds);
}

try {
  // 1. A scenario in the URL is the one shown, the canvas draws, play works.
  const wanted = {
    name: 'URL test: tornado on a 6x6 torus',
    topology: 'torus:6x6',
    routing: 'dor',
    traffic: 'tornado',
    load: 0.2,
    seed: 7,
  };
  const { context, page, problems } = await openPage(scenarioUrl(wanted));
  const s = await state(page);
  check(s.json.topology === 'torus:6x6' && s.json.traffic === 'tornado' && s.json.seed === 7,
    `the URL's scenario is shown (${s.json.topology}, ${s.json.traffic}, seed ${s.json.seed})`);
  check(s.title.includes('URL test'), `the title names it ("${s.title}")`);
  await page.waitForTimeout(1500);
  const colours = await distinctColours(page);
  check(colours > 30, `the canvas drew (${colours} distinct colours in the screenshot)`);
  await page.screenshot({ path: join(tmpdir(), 'routelab-web.png') });
  await page.mouse.click(640, 400);
  await page.keyboard.press('Space');
  await page.waitForTimeout(2000);
  const after = await state(page);
  check(after.cycle > s.cycle, `Space plays: cycle ${s.cycle} -> ${after.cycle}`);
  const crash = await page.evaluate(() => getComputedStyle(document.getElementById('crash_text')).display);
  check(crash === 'none', 'no crash message on the page');
  check(problems.length === 0, `no panic or error in the console${problems.length ? `: ${problems.join(' | ')}` : ''}`);
  await context.close();

  // The stage issue's warm-up bar: the DRB hot-spot preset (a 20 000-cycle
  // warm-up) shows its first measured latency within 15 s of Play, because
  // the warm-up runs as fast as the frame budget allows.
  {
    const here = dirname(fileURLToPath(import.meta.url));
    const preset = JSON.parse(readFileSync(join(here, '../../assets/scenarios/drb-torus8-hotspot.json'), 'utf8'));
    const { context, page, problems } = await openPage(scenarioUrl(preset));
    await page.waitForTimeout(500);
    await page.mouse.click(5, 790);
    await page.keyboard.press('Space');
    const start = Date.now();
    let seconds = null;
    try {
      await page.waitForFunction(
        () => document.getElementById('routelab-state')?.dataset.firstLatency !== undefined,
        null,
        { timeout: 60_000, polling: 100 },
      );
      seconds = (Date.now() - start) / 1000;
  } catch {
      seconds = null;
  }
    const s = await state(page);
    check(seconds !== null && seconds <= 15,
      `DRB hot spot: first measured latency ${seconds === null ? 'never' : `after ${seconds.toFixed(1)} s`} of Play (cycle ${s.cycle}; bar 15 s)`);
    check(problems.length === 0, `no panic or error in the console${problems.length ? `: ${problems.join(' | ')}` : ''}`);
    await context.close();
  }

  // 2. A malformed link: a message in the app, the default scenario, no panic.
  const bad = await openPage(`${base}#scenario=%7B%22vcs%22%3A%22two%22%7D`);
  const b = await state(bad.page);
  check(typeof b.json.topology === 'string' && b.json.vcs !== 'two', `a bad link keeps a valid scenario (${b.json.topology})`);
  check(bad.problems.length === 0, `a bad link causes no console error${bad.problems.length ? `: ${bad.problems.join(' | ')}` : ''}`);
  await bad.context.close();

  // 3. Native equals web: the same scenario and seed, the same digest.
  const here = dirname(fileURLToPath(import.meta.url));
  const digestScenarios = JSON.parse(readFileSync(join(here, 'digest-scenarios.json'), 'utf8'));
  const bin = process.env.ROUTELAB_BIN;
  check(Boolean(bin), `ROUTELAB_BIN names the native binary (${bin})`);
  const work = mkdtempSync(join(tmpdir(), 'routelab-digest-'));
  for (const [i, scenario] of digestScenarios.entries()) {
    const file = join(work, `scenario-${i}.json`);
    writeFileSync(file, JSON.stringify(scenario));
    const native = JSON.parse(execFileSync(bin, ['sim', '--scenario', file, '--digest'], { encoding: 'utf8' }));
    const p = await openPage(`${scenarioUrl(scenario)}&digest`);
    await p.page.waitForFunction(
      () => ['done', 'error'].includes(document.getElementById('routelab-digest')?.dataset.state),
      null,
      { timeout: 300_000 },
    );
    const { state: runState, text } = await p.page.evaluate(() => {
      const el = document.getElementById('routelab-digest');
      return { state: el.dataset.state, text: el.textContent };
    });
    if (runState !== 'done') {
      check(false, `${scenario.name}: the page's run failed: ${text}`);
    } else {
      const web = JSON.parse(text);
      let first = null;
      const n = Math.max(web.fields.length, native.fields.length);
      for (let k = 0; k < n && !first; k++) {
        const a = native.fields[k];
        const b = web.fields[k];
        if (!a || !b || a[0] !== b[0] || a[1] !== b[1]) {
          first = `field ${k} ${a ? a[0] : '(none)'}: native ${a ? a[1] : '(none)'}, web ${b ? `${b[0]}=${b[1]}` : '(none)'}`;
        }
      }
      check(web.digest === native.digest && !first,
        `${scenario.name}: web digest ${web.digest} ${web.digest === native.digest ? '=' : '!='} native ${native.digest} after ${web.cycle} cycles, ${web.fields.length} fields${first ? `; first difference: ${first}` : ''}`);
    }
    check(p.problems.length === 0, `${scenario.name}: no console error${p.problems.length ? `: ${p.problems.join(' | ')}` : ''}`);
    await p.context.close();
  }

  // 4. Frame rate while playing (optional).
  if (measureFps) {
    const runs = [
      ['torus:8x8', 1280, 800], ['torus:16x16', 1280, 800],
      ['torus:8x8', 960, 600], ['torus:8x8', 640, 400],
    ];
    for (const [topology, width, height] of runs) {
      const p = await openPage(
        scenarioUrl({ name: `fps ${topology}`, topology, routing: 'dor', traffic: 'uniform', load: 0.3 }),
        { width, height },
      );
      const idle = (await frameStats(p.page, 3)).fps;
      await p.page.mouse.click(width / 2, height / 2);
      await p.page.keyboard.press('Space');
      await p.page.waitForTimeout(1000);
      const c0 = (await state(p.page)).cycle;
      const { fps, cpuMs } = await frameStats(p.page, 5);
      const c1 = (await state(p.page)).cycle;
      console.log(`fps ${topology} ${width}x${height}: ${fps.toFixed(1)} frames/s while playing (10 cycles/frame; ${((c1 - c0) / 5).toFixed(0)} cycles/s), ${idle.toFixed(1)} frames/s paused; app time per frame ${cpuMs.toFixed(1)} ms (median; simulation + UI, before rasterising)`);
      await p.context.close();
    }
  }
  // 5. Cycles per second in the page (optional).
  if (measureRate) {
    const runs = [
      ['torus:8x8', 0.3, 4, 3_000_000],
      ['torus:32x32', 0.1, 4, 300_000],
    ];
    for (const [topology, load, packetFlits, warmup] of runs) {
      const p = await openPage(scenarioUrl({
        name: `rate ${topology}`, topology, routing: 'dor', traffic: 'uniform', load,
        packet_flits: packetFlits, warmup, cycles: 1000,
      }));
      await p.page.mouse.click(640, 400);
      await p.page.keyboard.press('Space');
      await p.page.waitForTimeout(2000);
      const rates = [];
      for (let k = 0; k < 3; k++) {
        const c0 = (await state(p.page)).cycle;
        const t0 = Date.now();
        await p.page.waitForTimeout(4000);
        const c1 = (await state(p.page)).cycle;
        rates.push((c1 - c0) / ((Date.now() - t0) / 1000));
      }
      const end = (await state(p.page)).cycle;
      check(end < warmup, `rate ${topology}: still inside the warm-up (cycle ${end} of ${warmup})`);
      rates.sort((a, b) => a - b);
      console.log(`rate ${topology} load ${load} ${packetFlits}-flit packets: ${rates.map((r) => r.toFixed(0)).join(', ')} cycles/s over three 4 s spans (median ${rates[1].toFixed(0)}), playing inside the warm-up (as fast as it goes)`);
      check(p.problems.length === 0, `rate ${topology}: no console error${p.problems.length ? `: ${p.problems.join(' | ')}` : ''}`);
      await p.context.close();
    }
  }
} catch (e) {
  failures++;
  console.log(`FAIL ${e.stack ?? e}`);
} finally {
  await browser.close();
}
console.log(`browser test: ${passes} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
