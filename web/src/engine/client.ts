// The page's side of the engine worker: a request in, a promise of its answer out. A
// refusal of the engine becomes an ApiError with the same codes as the server's, so the
// page shows it the same way.
import { ApiError } from "../api";

type Pending = { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void };

export class EngineClient {
  private worker: Worker | null = null;
  private next = 1;
  private pending = new Map<number, Pending>();

  private start(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
    w.onmessage = (m: MessageEvent<{ id: number; answer?: Record<string, unknown>; crash?: string }>) => {
      const p = this.pending.get(m.data.id);
      if (!p) return;
      this.pending.delete(m.data.id);
      if (m.data.crash !== undefined) p.reject(new ApiError(500, "engine", m.data.crash));
      else p.resolve(m.data.answer!);
    };
    w.onerror = (e) => {
      for (const p of this.pending.values()) p.reject(new ApiError(500, "engine", e.message || "the engine stopped"));
      this.pending.clear();
      this.worker = null;
    };
    this.worker = w;
    return w;
  }

  /** Sends a request; the answer, or an ApiError with the engine's code and reason. */
  call<T = Record<string, unknown>>(request: Record<string, unknown>): Promise<T> {
    const worker = this.start();
    const id = this.next++;
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, request });
    }).then((a) => {
      if (typeof a.error === "string") throw new ApiError(a.error === "illegal_move" || a.error === "bad_board" ? 422 : 409, a.error, String(a.reason ?? a.error), a);
      return a as T;
    });
  }
}

/** The page's one engine (started on first use). */
export const engine = new EngineClient();
