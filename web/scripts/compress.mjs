// After `vite build`: a brotli (.br) and a gzip (.gz) copy beside every text file of dist/,
// which `rumis serve` sends to browsers that accept them (ServeDir's precompressed files), so
// the bundle is compressed once at build time instead of on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
// (and the engine's WebAssembly module, which compresses to about a third)
const TEXT = /\.(html|js|mjs|css|svg|json|txt|map|wasm|webmanifest)$/;
let before = 0;
let br = 0;
let gz = 0;
for (const name of readdirSync(dist, { recursive: true })) {
  const path = join(dist, String(name));
  if (!TEXT.test(path) || !statSync(path).isFile()) continue;
  const data = readFileSync(path);
  const b = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
  const g = gzipSync(data, { level: 9 });
  writeFileSync(`${path}.br`, b);
  writeFileSync(`${path}.gz`, g);
  before += data.length;
  br += b.length;
  gz += g.length;
}
console.log(`compressed ${(before / 1024).toFixed(0)} KiB: brotli ${(br / 1024).toFixed(0)} KiB, gzip ${(gz / 1024).toFixed(0)} KiB`);
