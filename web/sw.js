// routelab's service worker: after one visit the app works with the
// network off (a classroom on bad Wi-Fi, a talk without a connection).
//
// On install it caches the page and everything the page loads: trunk names
// the wasm and JavaScript files by content hash, so it reads them from the
// page itself. Then every same-origin GET is answered from the cache when
// the network fails, and refreshed from the network when it works (a new
// build replaces the old one on the next online visit). Scenario links
// (#scenario=...) are fragments, so one cached page serves them all.
const CACHE = 'routelab-v1';
const SHELL = ['./', './index.html', './manifest.webmanifest',
  './icons/icon-192.png', './icons/icon-512.png', './icons/icon-maskable-512.png'];

async function precache() {
  const cache = await caches.open(CACHE);
  const page = await fetch('./', { cache: 'no-store' });
  const html = await page.clone().text();
  await cache.put('./', page);
  // The hashed build files the page references (modulepreload, preload,
  // the init script).
  const assets = new Set();
  for (const m of html.matchAll(/["'(]((?:\.?\/)?[\w.\-/]+\.(?:js|wasm|css))["')]/g)) {
    assets.add(new URL(m[1], self.registration.scope).href);
  }
  const all = [...SHELL.filter((u) => u !== './'), ...assets];
  await Promise.all(all.map(async (u) => {
    try {
      const r = await fetch(u, { cache: 'no-store' });
      if (r.ok) await cache.put(u, r);
    } catch (_) { /* a missing optional file is not fatal */ }
  }));
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // The page itself, whatever its fragment or query: the cached shell.
    const key = req.mode === 'navigate' ? './' : req;
    try {
      const fresh = await fetch(req);
      if (fresh.ok) await cache.put(key, fresh.clone());
      return fresh;
    } catch (err) {
      const hit = await cache.match(key, { ignoreSearch: req.mode === 'navigate' });
      if (hit) return hit;
      throw err;
    }
  })());
});
