// The engine's WebAssembly module (crates/rumis-wasm): the core and the AI, called with a
// JSON request and answering JSON. No generated glue: the module imports one function,
// the clock a timed search (level 9) reads (`env.rumis_now_ms`), and exports `rumis_alloc`, `rumis_call`, `rumis_answer_ptr` and `rumis_answer_len`
// (crates/rumis-wasm/src/ffi.rs). Used by the worker (worker.ts) and by the differential
// test in Node.js (tests/wasm.test.mjs).

interface Exports {
  memory: WebAssembly.Memory;
  rumis_alloc(len: number): number;
  rumis_call(ptr: number, len: number): number;
  rumis_answer_ptr(): number;
  rumis_answer_len(): number;
}

/** An answer of the engine that is a refusal: its stable code and the core's sentence. */
export interface EngineFailure {
  error: string;
  reason: string;
}

export interface EngineModule {
  /** Sends one request; the answer object (an `{error, reason}` object when refused). */
  call(request: Record<string, unknown>): Record<string, unknown>;
}

export async function instantiate(bytes: BufferSource): Promise<EngineModule> {
  const { instance } = await WebAssembly.instantiate(bytes, { env: { rumis_now_ms: () => performance.now() } });
  const x = instance.exports as unknown as Exports;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return {
    call(request) {
      const data = encoder.encode(JSON.stringify(request));
      const ptr = x.rumis_alloc(data.length);
      new Uint8Array(x.memory.buffer, ptr, data.length).set(data);
      const len = x.rumis_call(ptr, data.length);
      // The memory may have grown during the call: view it afresh.
      const text = decoder.decode(new Uint8Array(x.memory.buffer, x.rumis_answer_ptr(), len));
      return JSON.parse(text);
    },
  };
}
