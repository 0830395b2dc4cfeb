// Where the game's puzzles come from: the server (`/api/v1/training/...`, the player's key
// as the bearer when this browser has one). The choice, the judgement and the rating's
// update are the server's (rumis_ai::puzzles): the page only asks.
import { call, me } from "../players/api";
import type { TrainingPuzzle, TrainingResult } from "../wire";

/** What the next puzzle must be (each optional): a scenario, a player count, a theme. */
export interface Filter {
  scenario?: string;
  players?: number;
  theme?: string;
}

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

/** The page's source of puzzles. */
export const training: TrainingSource = serverTraining;
