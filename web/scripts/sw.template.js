// The app's service worker (written into dist/ by scripts/offline.mjs): the build's files
// are kept in a cache when it installs, so a reload without a network still loads the app
// and a local game resumes (its record is in the browser's storage). Pages are asked of
// the network first (a new build shows at once), the hashed files of the cache first; the
// server's API is never cached. Of the engine's three modules (scalar, SIMD, relaxed SIMD)
// only the one this browser loads is kept: the install asks the same questions as the
// page's worker (src/engine/simd.ts, whose probe modules offline.mjs copies here), so
// nobody downloads the others.
const VERSION = "__VERSION__";
const FILES = __FILES__;
const MODULES = __MODULES__;
const PROBE = new Uint8Array(__PROBE__);
const RELAXED_PROBE = new Uint8Array(__RELAXED_PROBE__);

function validates(probe) {
  try {
    return WebAssembly.validate(probe);
  } catch {
    return false;
  }
}

function engineModule() {
  if (!validates(PROBE)) return MODULES.scalar;
  return validates(RELAXED_PROBE) ? MODULES.relaxed : MODULES.simd;
}

self.addEventListener("install", (e) => {
  e.waitUntil(
    caches
      .open(VERSION)
      .then((c) => c.addAll([...FILES, engineModule()]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (e) => {
  e.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== VERSION && k.startsWith("rumis-")).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (e) => {
  const req = e.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (req.mode === "navigate") {
    // Every page of the app is index.html (the app routes by address).
    e.respondWith(fetch(req).catch(() => caches.match("/index.html", { cacheName: VERSION })));
    return;
  }
  e.respondWith(
    caches.match(req, { cacheName: VERSION }).then(
      (hit) =>
        hit ??
        fetch(req).then((res) => {
          // A build file not kept at install (an engine module): keep it now.
          if (res.ok && url.pathname.startsWith("/assets/")) {
            const copy = res.clone();
            caches.open(VERSION).then((c) => c.put(req, copy));
          }
          return res;
        }),
    ),
  );
});
