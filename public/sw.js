/*
 * Playmoney's service worker (registered by components/pwa/service-worker-registration.tsx in
 * production builds only). No push. What it does:
 * - install: caches the app shell (/, /offline, the manifest and its icons);
 * - /_next/static/* and /icons/*: stale-while-revalidate (served from cache, refreshed behind);
 * - page navigations: network first; a page that answered is kept, so an offline visit gets the
 *   last copy, else the offline page (app/offline/page.tsx);
 * - /api/*, event streams, React Server Component fetches and anything not GET or not ours:
 *   never touched, never cached.
 * Bump VERSION to drop every older cache on the next activation.
 */
const VERSION = 'v1';
const SHELL_CACHE = `playmoney-shell-${VERSION}`;
const STATIC_CACHE = `playmoney-static-${VERSION}`;
const PAGE_CACHE = `playmoney-pages-${VERSION}`;
const OFFLINE_URL = '/offline';
const SHELL = ['/', OFFLINE_URL, '/manifest.webmanifest', '/icons/icon-192.png', '/icons/icon-512.png', '/icon.svg'];
const MAX_PAGES = 30;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      // One by one, so a page that fails (e.g. a redirect) does not keep the worker from installing;
      // the offline page alone is required.
      .then((cache) =>
        Promise.all(
          SHELL.map((url) =>
            fetch(url, { credentials: 'same-origin', cache: 'reload' })
              .then((res) => (res.ok && !res.redirected ? cache.put(url, res) : url === OFFLINE_URL ? Promise.reject(new Error('offline page missing')) : undefined))
              .catch((err) => (url === OFFLINE_URL ? Promise.reject(err) : undefined)),
          ),
        ),
      )
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  const keep = new Set([SHELL_CACHE, STATIC_CACHE, PAGE_CACHE]);
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('playmoney-') && !keep.has(k)).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** Requests the worker leaves to the network untouched. */
function bypass(request, url) {
  if (request.method !== 'GET') return true;
  if (url.origin !== self.location.origin) return true;
  if (url.pathname === '/api' || url.pathname.startsWith('/api/')) return true;
  if (url.pathname === '/sw.js') return true;
  if (url.searchParams.has('_rsc') || request.headers.get('RSC') === '1') return true;
  const accept = request.headers.get('Accept') || '';
  if (accept.includes('text/event-stream')) return true;
  return false;
}

async function staleWhileRevalidate(event, request) {
  const cache = await caches.open(STATIC_CACHE);
  const cached = await cache.match(request);
  const refresh = fetch(request)
    .then((res) => {
      if (res.ok && res.type === 'basic') return cache.put(request, res.clone()).then(() => res);
      return res;
    })
    .catch(() => undefined);
  if (cached) {
    event.waitUntil(refresh);
    return cached;
  }
  const fresh = await refresh;
  return fresh || Response.error();
}

async function trimPages(cache) {
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_PAGES)).map((k) => cache.delete(k)));
}

async function networkFirstPage(event, request) {
  try {
    const res = await fetch(request);
    if (res.ok && res.type === 'basic' && !res.redirected) {
      const copy = res.clone();
      event.waitUntil(caches.open(PAGE_CACHE).then((cache) => cache.put(request, copy).then(() => trimPages(cache))));
    }
    return res;
  } catch {
    const cached = (await caches.match(request, { cacheName: PAGE_CACHE })) || (await caches.match(request, { cacheName: SHELL_CACHE }));
    if (cached) return cached;
    const offline = await caches.match(OFFLINE_URL, { cacheName: SHELL_CACHE });
    return offline || new Response('You are offline.', { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (bypass(request, url)) return;
  if (request.mode === 'navigate') {
    event.respondWith(networkFirstPage(event, request));
    return;
  }
  if (url.pathname.startsWith('/_next/static/') || url.pathname.startsWith('/icons/') || url.pathname === '/icon.svg' || url.pathname === '/manifest.webmanifest') {
    event.respondWith(staleWhileRevalidate(event, request));
  }
});
