// The lessons' positions and placements, as the core judges them (`GET /api/v1/lessons`, or
// the engine's `lessons` in this browser when no server answers).
import { call } from "../api";
import { engine } from "../engine/client";
import { serverOr } from "../engine/fallback";
import type { Xyz } from "../api";
import type { Letter } from "../wire";
import type { SceneBoard } from "./scene";

export interface LessonBoard extends SceneBoard {
  name: string;
}

export interface LessonExample {
  id: string;
  board: LessonBoard;
  players: number;
  moves: string[];
  structure: { colour: Letter; cubes: Xyz[] }[];
  colour: Letter;
  placement: string;
  stone: string;
  cubes: Xyz[];
  legal: boolean;
  /** The rule the core names when it refuses the placement. */
  rule: string | null;
  detail: { column?: string; height?: number; needed?: number; level?: number; colour?: string; stone?: string };
  reason: string | null;
}

export interface LessonScore {
  id: string;
  board: LessonBoard;
  players: number;
  moves: string[];
  structure: { colour: Letter; cubes: Xyz[] }[];
  colours: { colour: Letter; seen: number; stones_left: number; score: number }[];
}

export interface Lessons {
  examples: LessonExample[];
  scores: LessonScore[];
}

let cached: Promise<Lessons> | null = null;

/** The lessons: the server's, or without one the same list from the engine in this browser. */
export function lessons(): Promise<Lessons> {
  cached ??= serverOr(
    () => call<Lessons>("GET", "/lessons"),
    () => engine.call<Lessons>({ cmd: "lessons" }),
  );
  return cached;
}
