// The Web Worker that runs the engine's WebAssembly module, so the page never waits on a
// search: each message is one request to the engine, answered in order.
import scalarUrl from "./rumis.wasm?url";
import simdUrl from "./rumis-simd.wasm?url";
import { instantiate } from "./module";
import { pickModule } from "./simd";
import type { EngineModule } from "./module";

let engine: Promise<EngineModule> | null = null;

// The SIMD module where the browser runs WebAssembly SIMD (simd.ts), else the scalar one:
// only one of the two is ever downloaded.
const wasmUrl = pickModule({ simd: simdUrl, scalar: scalarUrl });

function load(): Promise<EngineModule> {
  engine ??= fetch(wasmUrl)
    .then((r) => {
      if (!r.ok) throw new Error(`the engine module could not be loaded (${r.status})`);
      return r.arrayBuffer();
    })
    .then((bytes) => instantiate(bytes));
  return engine;
}

self.onmessage = async (m: MessageEvent<{ id: number; request: Record<string, unknown> }>) => {
  const { id, request } = m.data;
  try {
    const e = await load();
    postMessage({ id, answer: e.call(request) });
  } catch (err) {
    // A trap leaves the module's memory in an unknown state: start from a fresh one next time.
    engine = null;
    postMessage({ id, crash: err instanceof Error ? err.message : String(err) });
  }
};
