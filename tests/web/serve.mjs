// What the web scripts share: a static server for dist/ on a free port
// (which can drop its connections, to take the network away), and headless
// Chromium with the SwiftShader flags of ../shared/TOOLCHAIN.md.
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const TYPES = {
  '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.png': 'image/png', '.webmanifest': 'application/manifest+json',
};

/// Serve `dist`; returns { base, close } (close drops open connections too).
export async function serve(dist) {
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
  return {
    base: `http://127.0.0.1:${server.address().port}/`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((ok) => server.close(ok));
    },
  };
}

/// Headless Chromium (CHROMIUM: its path; default Debian's).
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync',
      '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
    ],
  });
}
