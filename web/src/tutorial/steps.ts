// The guide's steps, in order, each with the moment it first matters. A step only says
// when to explain; what is legal stays the core's (the game page marks the core's legal
// places, and the pictures are the lessons the core judged).
import type { GameState, Letter } from "../api";

export interface Moment {
  state: GameState;
  /** The colours this browser plays. */
  mine: Letter[];
  myTurn: boolean;
  /** Stones this browser's colour has placed. */
  placed: number;
}

export interface Step {
  id: string;
  when: (m: Moment) => boolean;
  /** A lesson picture (an example id of `/api/v1/lessons`). */
  figure?: string;
  /** The section of the How-to-play page that says more. */
  section: string;
}

export const STEPS: Step[] = [
  { id: "welcome", when: () => true, section: "goal" },
  { id: "first_stone", when: (m) => m.myTurn && m.placed === 0, figure: "first_touching", section: "first" },
  { id: "contact", when: (m) => m.myTurn && m.placed === 1, figure: "no_contact", section: "contact" },
  { id: "support", when: (m) => m.myTurn && m.placed >= 2, figure: "hole", section: "support" },
  { id: "height", when: (m) => m.myTurn && m.placed >= 3, figure: "too_high", section: "height" },
  { id: "out", when: (m) => m.state.colours.some((c) => c.out), section: "turns" },
  { id: "score", when: (m) => m.state.over, section: "score" },
];

/** Columns whose top cube is of `colour`: what is seen of it from above. */
export function seenFromAbove(state: GameState, colour: Letter): number {
  return state.position.columns.filter((c) => c.top === colour).length;
}
