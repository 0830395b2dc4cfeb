// The Web Worker that runs the engine's WebAssembly module, so the page never waits on a
// search: each message is one request to the engine, answered in order.
import scalarUrl from "./rumis.wasm?url";
import simdUrl from "./rumis-simd.wasm?url";
import relaxedUrl from "./rumis-relaxed.wasm?url";
import { instantiate } from "./module";
import { pickModule } from "./simd";
import type { EngineModule, EngineReply } from "./module";
import type { EngineRequest } from "./protocol";

/** A message to the worker: a request, and its number (which the answer carries back). */
export interface WorkerRequest {
  id: number;
  request: EngineRequest;
}

/** The worker's message back: the engine's reply, or why the module stopped (a trap). */
export type WorkerReply = { id: number; answer: EngineReply } | { id: number; crash: string };

const reply = (r: WorkerReply) => postMessage(r);

let engine: Promise<EngineModule> | null = null;

// The relaxed-SIMD module where the browser runs relaxed SIMD, else the SIMD one where it
// runs WebAssembly SIMD (simd.ts), else the scalar one: only one of the three is ever
// downloaded.
const wasmUrl = pickModule({ relaxed: relaxedUrl, simd: simdUrl, scalar: scalarUrl });

function load(): Promise<EngineModule> {
  engine ??= fetch(wasmUrl)
    .then((r) => {
      if (!r.ok) throw new Error(`the engine module could not be loaded (${r.status})`);
      return r.arrayBuffer();
    })
    .then((bytes) => instantiate(bytes));
  return engine;
}

// Warming up. V8 runs a fresh module's functions through its baseline compiler and
// optimises a function only once it has run a while, so the first search of a page took
// about half a second longer than the next (Chromium, Coricancha 4 players, level 8: 2.2 s
// cold, 1.35-1.5 s warm; 1.5-1.9 s after a small search first). Once the module has
// answered a request, the worker spends idle moments on a few small searches whose answers
// nobody reads (the engine keeps nothing between requests), one slice (tens of
// milliseconds) at a time, never while a request waits: by the AI's first move the
// generator and the search are optimised.
const WARM_UP_SLICES = 6;
let warmSlices = 0;
let waiting = 0;

function warmUp(e: EngineModule) {
  if (warmSlices >= WARM_UP_SLICES) return;
  setTimeout(() => {
    // A request came meanwhile: its handler calls this again when it is answered.
    if (waiting > 0 || warmSlices >= WARM_UP_SLICES) return;
    warmSlices++;
    try {
      const made = e.call({ cmd: "new", board: "chullpa", players: 4 });
      if ("error" in made) throw new Error(made.reason);
      e.call({ cmd: "ai", record: made.record, level: 4, seed: warmSlices });
    } catch {
      // A trap: as below, the next request starts from a fresh module; no more warming.
      warmSlices = WARM_UP_SLICES;
      engine = null;
      return;
    }
    warmUp(e);
  }, 20);
}

self.onmessage = async (m: MessageEvent<WorkerRequest>) => {
  const { id, request } = m.data;
  waiting++;
  try {
    const e = await load();
    reply({ id, answer: e.call(request) });
    waiting--;
    warmUp(e);
  } catch (err) {
    waiting--;
    // A trap leaves the module's memory in an unknown state: start from a fresh one next time.
    engine = null;
    reply({ id, crash: err instanceof Error ? err.message : String(err) });
  }
};
