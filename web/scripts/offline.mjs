// After `vite build`: writes dist/sw.js, the service worker that keeps the app for offline
// use, with the list of the build's files (their names carry content hashes, so they are
// known only now) and a version from their contents (a new build replaces the old cache).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, dirname, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(web, "dist");
const files = [];
const hash = createHash("sha256");
for (const name of readdirSync(dist, { recursive: true }).map(String).sort()) {
  const path = join(dist, name);
  if (!statSync(path).isFile() || /\.(br|gz)$/.test(name) || name === "sw.js") continue;
  files.push("/" + relative(dist, path).split(sep).join("/"));
  hash.update(name).update(readFileSync(path));
}
const version = `rumis-${hash.digest("hex").slice(0, 16)}`;
const worker = readFileSync(join(web, "scripts", "sw.template.js"), "utf8")
  .replace("__VERSION__", version)
  .replace("__FILES__", JSON.stringify(files, null, 2));
writeFileSync(join(dist, "sw.js"), worker);
console.log(`service worker ${version}: ${files.length} files kept for offline use`);
