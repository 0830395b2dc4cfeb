// Where the game's puzzles come from: the server (`/api/v1/training/...`, the player's key
// as the bearer when this browser has one), or, without a server (a static copy of the app,
// offline), the puzzles shipped with the app (local.ts) and the engine in this browser.
// Either way the choice, the judgement and the rating's update are the same Rust code
// (rumis_ai::puzzles): the page only asks.
import { serverOr } from "../engine/fallback";
import { call, me } from "../players/api";
import type { Filter } from "../engine/protocol";
import type { TrainingPuzzle, TrainingResult } from "../wire";
import { localTraining } from "./local";

export interface TrainingSource {
  daily(): Promise<TrainingPuzzle>;
  next(filter: Filter): Promise<TrainingPuzzle>;
  get(id: string): Promise<TrainingPuzzle>;
  attempt(id: string, placement: string): Promise<TrainingResult>;
}

const key = () => me.get()?.key;
const g = (id: string) => encodeURIComponent(id);

function query(f: Filter): string {
  const q = new URLSearchParams();
  if (f.scenario) q.set("scenario", f.scenario);
  if (f.players) q.set("players", String(f.players));
  if (f.theme) q.set("theme", f.theme);
  const s = q.toString();
  return s ? `?${s}` : "";
}

export const serverTraining: TrainingSource = {
  daily: () => call<TrainingPuzzle>("GET", "/training/daily", undefined, key()),
  next: (f) => call<TrainingPuzzle>("GET", `/training/next${query(f)}`, undefined, key()),
  get: (id) => call<TrainingPuzzle>("GET", `/training/${g(id)}`, undefined, key()),
  attempt: (id, placement) => call<TrainingResult>("POST", `/training/${g(id)}/attempt`, { placement }, key()),
};

/** The server's puzzles, or the shipped ones when no server answers (remembered for the page). */
export const training: TrainingSource = {
  daily: () => serverOr(serverTraining.daily, localTraining.daily),
  next: (f) => serverOr(() => serverTraining.next(f), () => localTraining.next(f)),
  get: (id) => serverOr(() => serverTraining.get(id), () => localTraining.get(id)),
  attempt: (id, p) => serverOr(() => serverTraining.attempt(id, p), () => localTraining.attempt(id, p)),
};
