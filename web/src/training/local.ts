// The game's puzzles without a server: the files of puzzles/ shipped with the static app
// (`/training.json`, written by scripts/offline.mjs), the engine in this browser to choose,
// draw and judge (the server's own code, compiled to WebAssembly), and the player's puzzle
// rating and the puzzles they tried kept in this browser (localStorage). The puzzles'
// own ratings stay the files' here: a puzzle's rating is everyone's, kept by a server.
import { ApiError } from "../api";
import { engine } from "../engine/client";
import type { Candidate, Filter, Puzzle } from "../engine/protocol";
import type { TrainingPuzzle, TrainingRating, TrainingResult } from "../wire";
import type { TrainingSource } from "./source";

/** One file of puzzles/: a scenario and player count. */
interface PuzzleFile {
  board: string;
  players: number;
  variant: string;
  puzzles: Puzzle[];
}

/** What this browser keeps: the player's puzzle rating and the puzzles tried. */
export interface Kept {
  you: TrainingRating;
  tried: string[];
}

const KEY = "rumis.training";
const DAY_MS = 86_400_000;
/** A new player's rating: Glicko-2's defaults, as the server starts one. */
const NEW: TrainingRating = { rating: 1500, deviation: 350, volatility: 0.06, attempts: 0 };

export const kept = {
  get(): Kept {
    try {
      const v = JSON.parse(localStorage.getItem(KEY) ?? "null");
      if (v && typeof v.you?.rating === "number" && Array.isArray(v.tried)) return v;
    } catch {
      // A damaged entry: start afresh.
    }
    return { you: { ...NEW }, tried: [] };
  },
  set(k: Kept) {
    localStorage.setItem(KEY, JSON.stringify(k));
  },
};

let files: Promise<PuzzleFile[]> | null = null;

function shipped(): Promise<PuzzleFile[]> {
  files ??= fetch("/training.json").then(async (r) => {
    if (!r.ok) throw new ApiError(r.status, "http", `the puzzles cannot be loaded: ${r.status}`);
    return (await r.json()) as PuzzleFile[];
  });
  files.catch(() => (files = null));
  return files;
}

function candidates(sets: PuzzleFile[]): Candidate[] {
  return sets.flatMap((s) => s.puzzles.map((p) => ({ id: p.id, board: s.board, players: s.players, rating: p.rating, themes: p.themes })));
}

async function find(id: string): Promise<{ file: PuzzleFile; puzzle: Puzzle }> {
  for (const file of await shipped()) {
    const puzzle = file.puzzles.find((p) => p.id === id);
    if (puzzle) return { file, puzzle };
  }
  throw new ApiError(404, "unknown_puzzle", `there is no puzzle '${id}'`);
}

async function show(id: string, daily: string | null): Promise<TrainingPuzzle> {
  const { file, puzzle } = await find(id);
  const k = kept.get();
  return engine.call({ cmd: "training_puzzle", board: file.board, players: file.players, puzzle, daily: daily ?? undefined, you: k.you, tried: k.tried.includes(id) });
}

export const localTraining: TrainingSource = {
  async daily() {
    const picked = await engine.call({ cmd: "training_pick", candidates: candidates(await shipped()), day: Math.floor(Date.now() / DAY_MS) });
    if (!picked.id) throw new ApiError(404, "no_puzzle", "no puzzles ship");
    return show(picked.id, picked.date);
  },
  async next(filter: Filter) {
    const k = kept.get();
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    const picked = await engine.call({ cmd: "training_pick", candidates: candidates(await shipped()), rating: k.you.rating, tried: k.tried, filter, seed });
    if (!picked.id) throw new ApiError(404, "no_puzzle", "no puzzle matches");
    return show(picked.id, null);
  },
  get: (id) => show(id, null),
  async attempt(id, placement): Promise<TrainingResult> {
    const { file, puzzle } = await find(id);
    const k = kept.get();
    const tried = k.tried.includes(id);
    const r = await engine.call({ cmd: "training_attempt", board: file.board, players: file.players, puzzle, placement, you: k.you, tried });
    // Only a first attempt moves the rating (the engine says whether it was rated).
    kept.set({ you: r.you ?? k.you, tried: tried ? k.tried : [...k.tried, id] });
    return r;
  },
};
