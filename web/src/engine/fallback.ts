// Pages that work with or without a server (the solitaire, How to play, the guided game's
// start): ask the server, and when none answers — a static copy of the app, or offline —
// ask the engine in this browser instead. Only the absence of a server falls back: a
// server's refusal (an illegal stone, say) stays a refusal.
import { ApiError, api } from "../api";
import type { PuzzleSolution, PuzzleState, StoneInfo } from "../wire";
import { engine } from "./client";

/** No `rumis serve` behind this page: the request did not reach one, or what answered is
 * not its API (a static file server's 404 page). */
export function isNoServer(e: unknown): boolean {
  return e instanceof ApiError && (e.status === 0 || e.code === "http");
}

let absent = false;

/** Whether a request of this page has already found no server. */
export const serverAbsent = () => absent;

/** The server's answer, or the local engine's when there is no server (remembered for the
 * page, so later requests go straight to the engine). */
export async function serverOr<T>(server: () => Promise<T>, local: () => Promise<T>): Promise<T> {
  if (absent) return local();
  try {
    return await server();
  } catch (e) {
    if (!isNoServer(e)) throw e;
    absent = true;
    return local();
  }
}

/** The requests of the pages that need no server, each answered by the server or else by
 * the engine (its commands answer in the server's shapes). */
export const eitherEngine = {
  stones: (): Promise<StoneInfo[]> =>
    serverOr(api.stones, () => engine.call({ cmd: "stones" }).then((r) => r.stones)),
  puzzle: (size: string, moves: string[]): Promise<PuzzleState> =>
    serverOr(
      () => api.puzzle(size, moves),
      () => engine.call({ cmd: "puzzle", size, moves }),
    ),
  puzzleSolution: (name: string): Promise<PuzzleSolution> =>
    serverOr(
      () => api.puzzleSolution(name),
      () => engine.call({ cmd: "puzzle_solution", name }),
    ),
};
