// The guide's steps, in order, each with the moment it first matters. A step only says
// when to explain; what is legal stays the core's (the game page marks the core's legal
// places, and the pictures are the lessons the core judged).
import type { GameState, Letter, Placement } from "../wire";

export interface Moment {
  state: GameState;
  /** The colours this browser plays. */
  mine: Letter[];
  myTurn: boolean;
  /** Stones this browser's colour has placed. */
  placed: number;
  /** The core's legal placements now, when it is this browser's turn. */
  placements: Placement[];
}

/** A placement with a cube resting on the structure (not on the board, not on itself). */
function onTop(p: Placement) {
  return p.cubes.some(([x, y, z]) => z > 0 && !p.cubes.some((c) => c[0] === x && c[1] === y && c[2] === z - 1));
}

/** A placement reaching the height limit of one of its columns. */
function reachesLimit(state: GameState, p: Placement) {
  const limit = new Map(state.position.columns.map((c) => [`${c.x},${c.y}`, c.limit]));
  return p.cubes.some(([x, y, z]) => z + 1 === limit.get(`${x},${y}`));
}

export interface Step {
  id: string;
  when: (m: Moment) => boolean;
  /** A lesson picture (an example id of `/api/v1/lessons`). */
  figure?: string;
  /** The section of the How-to-play page that says more. */
  section: string;
  /** Waits for a turn of its own rather than following another step at once. */
  paced?: boolean;
}

export const STEPS: Step[] = [
  { id: "welcome", when: () => true, section: "goal" },
  { id: "first_stone", when: (m) => m.myTurn && m.placed === 0, figure: "first_touching", section: "first" },
  { id: "contact", when: (m) => m.myTurn && m.placed === 1, figure: "no_contact", section: "contact" },
  // Support matters once you can build on other stones; the limit once you can reach it
  // (or, failing that, a few stones in).
  { id: "support", when: (m) => m.myTurn && m.placed >= 1 && (m.placed >= 3 || m.placements.some(onTop)), figure: "hole", section: "support", paced: true },
  { id: "height", when: (m) => m.myTurn && m.placed >= 1 && (m.placed >= 4 || m.placements.some((p) => reachesLimit(m.state, p))), figure: "too_high", section: "height", paced: true },
  { id: "out", when: (m) => m.state.colours.some((c) => c.out), section: "turns" },
  { id: "score", when: (m) => m.state.over, section: "score" },
];

/** Columns whose top cube is of `colour`: what is seen of it from above. */
export function seenFromAbove(state: GameState, colour: Letter): number {
  return state.position.columns.filter((c) => c.top === colour).length;
}
