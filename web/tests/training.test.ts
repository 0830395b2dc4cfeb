// The puzzle page's state (src/training/state.ts) and its words (words.ts): what the board
// shows in each phase (the position, the best placement placed once solved, the best as a
// ghost beside a wrong answer) and the judgement's lines from its fields. The texts
// (i18n.ts) and the colour names (ui.ts) are stand-ins, so the test runs without a DOM.
import { describe, expect, test, vi } from "vitest";
import type { TrainingPlacement, TrainingPuzzle, TrainingResult } from "../src/wire";

vi.mock("../src/i18n", () => ({ t: (key: string, opts?: object) => (opts ? `${key} ${JSON.stringify(opts)}` : key) }));
vi.mock("../src/ui", () => ({ colourName: (l: string) => `colour ${l}` }));

const { TrainingState } = await import("../src/training/state");
const { judgement, outcome, signed } = await import("../src/training/words");

/** A position of two columns, (0,0) with a red cube and (1,0) empty; yellow to move. */
function puzzle(): TrainingPuzzle {
  return {
    id: "chullpa-2-000000000001",
    board: "Chullpa",
    players: 2,
    to_move: "Y",
    rating: 1500,
    kind: "exact",
    daily: null,
    you: { rating: 1500, deviation: 350, volatility: 0.06, attempts: 0 },
    tried: false,
    placements: { move_number: 2, colour: "Y", placements: [] },
    state: {
      to_move: "Y",
      colours: [
        { colour: "R", stones_left: ["I2"] },
        { colour: "Y", stones_left: ["I2", "L3"] },
      ],
      position: {
        columns: [
          { cell: "a1", x: 0, y: 0, limit: 3, height: 1, top: "R", cubes: ["R"] },
          { cell: "b1", x: 1, y: 0, limit: 3, height: 0, top: null, cubes: [] },
        ],
      },
    } as unknown as TrainingPuzzle["state"],
  };
}

const placed = (placement: string, cubes: [number, number, number][], value: number, place: number | null, margin: number | null): TrainingPlacement => ({
  placement: { placement, stone: "I2", orientation: 0, cubes },
  value,
  place,
  shared: place === null ? null : false,
  margin,
});

function result(solved: boolean): TrainingResult {
  const best = placed("I2@a1,b1", [[0, 0, 1], [1, 0, 0]], 0.95, 1, 2);
  return {
    puzzle: "chullpa-2-000000000001",
    solved,
    played: solved ? best : placed("I2@b1x2", [[1, 0, 0], [1, 0, 1]], 0.3, 2, -3),
    best,
    kind: "exact",
    reason: "",
    themes: ["keep-the-win"],
    rated: true,
    you: { rating: solved ? 1662 : 1338, deviation: 290, volatility: 0.06, attempts: 1 },
    change: { before: 1500, after: solved ? 1662 : 1338 },
    puzzle_rating: { before: 1500, after: solved ? 1338 : 1662 },
  };
}

describe("the puzzle page's state", () => {
  test("solving: the position as it is, the mover's stones, nothing outlined", () => {
    const s = new TrainingState();
    expect(s.canPlace).toBe(false);
    s.load(puzzle());
    expect(s.canPlace).toBe(true);
    expect(s.mover).toBe("Y");
    expect(s.stonesLeft).toEqual(["I2", "L3"]);
    expect(s.columns().map((c) => c.cubes)).toEqual([["R"], []]);
    expect(s.bestGhost).toBeNull();
    expect(s.outlined).toBeNull();
  });

  test("solved: the best placement stands in the mover's colour, outlined; the rating is the new one", () => {
    const s = new TrainingState();
    s.load(puzzle());
    s.checking();
    expect(s.canPlace).toBe(false);
    s.judged(result(true));
    expect(s.phase).toBe("solved");
    expect(s.columns().map((c) => c.cubes)).toEqual([["R", "Y"], ["Y"]]);
    expect(s.columns()[1].top).toBe("Y");
    expect(s.outlined).toEqual([[0, 0, 1], [1, 0, 0]]);
    expect(s.you?.rating).toBe(1662);
    expect(s.puzzle?.tried).toBe(true);
  });

  test("failed: the position unchanged, the best as a ghost; once more, solving again", () => {
    const s = new TrainingState();
    s.load(puzzle());
    s.judged(result(false));
    expect(s.phase).toBe("failed");
    expect(s.columns().map((c) => c.cubes)).toEqual([["R"], []]);
    expect(s.bestGhost).toEqual([[0, 0, 1], [1, 0, 0]]);
    s.retry();
    expect(s.canPlace).toBe(true);
    expect(s.bestGhost).toBeNull();
  });

  test("a refused answer goes back to solving, the puzzle still untried", () => {
    const s = new TrainingState();
    s.load(puzzle());
    s.checking();
    s.judged(null);
    expect(s.phase).toBe("solving");
    expect(s.puzzle?.tried).toBe(false);
  });
});

describe("the judgement's words", () => {
  test("each placement's outcome from its place and margin, or its estimate", () => {
    expect(outcome(placed("x", [], 0.95, 1, 2), "Y")).toBe('training.wins {"colour":"colour Y","count":2}');
    expect(outcome(placed("x", [], 0.5, 1, 0), "Y")).toBe('training.ties {"colour":"colour Y"}');
    expect(outcome(placed("x", [], 0.3, 2, -3), "Y")).toBe('training.behind {"colour":"colour Y","place":2,"count":3}');
    expect(outcome(placed("x", [], 0.414, null, null), "R")).toBe('training.estimate {"colour":"colour R","value":41}');
  });

  test("a wrong answer: the verdict, both outcomes and how they were found", () => {
    const lines = judgement(result(false), "Y");
    expect(lines[0]).toBe('training.failed {"played":"I2@b1x2","best":"I2@a1,b1"}');
    expect(lines[1]).toContain("training.behind");
    expect(lines[2]).toContain("training.wins");
    expect(lines[3]).toBe("training.exactNote");
    expect(judgement(result(true), "Y")[0]).toBe('training.solved {"placement":"I2@a1,b1"}');
  });

  test("a change is signed", () => {
    expect([signed(162.3), signed(-41.6), signed(0.2)]).toEqual(["+162", "−42", "±0"]);
  });
});
