// A plain static file server for the browser tests of the app without `rumis serve`: it
// serves web/dist as any static host would — files by path, a folder's index.html for the
// folder (`/` and `/puzzle`), nothing else (no /api, no fallback page) — on a free loopback
// port. `cut()` makes it a network that is down, for the tests of the offline copy: from
// then on it answers nothing, until `restore()`.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { join, normalize, extname } from "node:path";
import { webDir } from "./harness.mjs";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".wasm": "application/wasm",
};

export async function startStatic(root = join(webDir, "dist")) {
  // What the pages fetched, and apart from it the browser's own checks for a newer service
  // worker script (the `Service-Worker: script` header). Chromium makes those from the
  // browser process, outside a page's offline emulation (`context.setOffline`), so an
  // "offline" test still saw them on a loaded machine; a browser that is really offline
  // fails them and keeps the installed worker.
  const requests = [];
  const workerChecks = [];
  // While cut: what was asked all the same, each request's connection destroyed unanswered
  // (the browser sees a network error, as with no network). Emulated offline mode
  // (`context.setOffline`) is no such cut: on an Intel Xeon (Chromium 148) it let the
  // service worker's own requests through, which then found the server (issue #49). The
  // server stays up so that the next tests of the same file find it again.
  let down = false;
  const refused = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (down) {
      refused.push(path);
      return req.socket.destroy();
    }
    (req.headers["service-worker"] === "script" ? workerChecks : requests).push(path);
    let file = normalize(join(root, path));
    if (!file.startsWith(root)) return res.writeHead(403).end();
    try {
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    workerChecks,
    refused,
    cut: () => {
      down = true;
      // Not even a connection the browser keeps open from before: each is closed now, as
      // a network going down would (a request on one would be refused above all the same).
      server.closeAllConnections();
    },
    restore: () => {
      down = false;
    },
    stop: () => new Promise((ok) => server.close(ok)),
  };
}
