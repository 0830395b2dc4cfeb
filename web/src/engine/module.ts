// The engine's WebAssembly module (crates/rumis-wasm): the core and the AI, called with a
// JSON request and answering JSON, both typed in protocol.ts (written from the Rust
// protocol, crates/rumis-wasm/src/protocol.rs). No generated glue: the module imports one function,
// the clock a timed search (level 9) reads (`env.rumis_now_ms`), and exports `rumis_alloc`, `rumis_call`, `rumis_answer_ptr` and `rumis_answer_len`
// (crates/rumis-wasm/src/ffi.rs). Used by the worker (worker.ts) and by the differential
// test in Node.js (tests/wasm.test.mjs).
import type { EngineAnswers, EngineFailure, EngineRequest } from "./protocol";

interface Exports {
  memory: WebAssembly.Memory;
  rumis_alloc(len: number): number;
  rumis_call(ptr: number, len: number): number;
  rumis_answer_ptr(): number;
  rumis_answer_len(): number;
}

/** What the engine answers a request: the command's answer, or a refusal. */
export type EngineReply<R extends EngineRequest = EngineRequest> = EngineAnswers[R["cmd"]] | EngineFailure;

export interface EngineModule {
  /** Sends one request; the command's answer, or an `{error, reason}` object when refused. */
  call<R extends EngineRequest>(request: R): EngineReply<R>;
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
