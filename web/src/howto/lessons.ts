// The lessons' positions and placements, as the core judges them (`GET /api/v1/lessons`, or
// the engine's `lessons` in this browser when no server answers).
import { call } from "../api";
import { engine } from "../engine/client";
import { serverOr } from "../engine/fallback";
import type { Lessons } from "../engine/protocol";

export type { LessonExample, LessonScore, Lessons } from "../engine/protocol";

let cached: Promise<Lessons> | null = null;

/** The lessons: the server's, or without one the same list from the engine in this browser. */
export function lessons(): Promise<Lessons> {
  cached ??= serverOr(
    () => call<Lessons>("GET", "/lessons"),
    () => engine.call({ cmd: "lessons" }),
  );
  return cached;
}
