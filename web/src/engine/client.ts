// The page's side of the engine worker: a request in, a promise of its answer out, both
// typed by the protocol (protocol.ts, written from crates/rumis-wasm/src/protocol.rs). A
// refusal of the engine becomes an ApiError with the same codes as the server's, so the
// page shows it the same way.
import { ApiError } from "../api";
import type { EngineReply } from "./module";
import type { EngineAnswers, EngineRequest } from "./protocol";
import type { WorkerReply, WorkerRequest } from "./worker";

type Pending = { resolve: (v: EngineReply) => void; reject: (e: Error) => void };

export class EngineClient {
  private worker: Worker | null = null;
  private next = 1;
  private pending = new Map<number, Pending>();

  private start(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
    w.onmessage = (m: MessageEvent<WorkerReply>) => {
      const p = this.pending.get(m.data.id);
      if (!p) return;
      this.pending.delete(m.data.id);
      if ("crash" in m.data) p.reject(new ApiError(500, "engine", m.data.crash));
      else p.resolve(m.data.answer);
    };
    w.onerror = (e) => {
      for (const p of this.pending.values()) p.reject(new ApiError(500, "engine", e.message || "the engine stopped"));
      this.pending.clear();
      this.worker = null;
    };
    this.worker = w;
    return w;
  }

  /** Sends a request; the command's answer, or an ApiError with the engine's code and reason. */
  call<R extends EngineRequest>(request: R): Promise<EngineAnswers[R["cmd"]]> {
    const worker = this.start();
    const id = this.next++;
    return new Promise<EngineReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, request } satisfies WorkerRequest);
    }).then((a) => {
      if ("error" in a && typeof a.error === "string") {
        throw new ApiError(a.error === "illegal_move" || a.error === "bad_board" ? 422 : 409, a.error, String(a.reason ?? a.error), a);
      }
      return a as EngineAnswers[R["cmd"]];
    });
  }
}

/** The page's one engine (started on first use). */
export const engine = new EngineClient();
