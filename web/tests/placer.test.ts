// Placer (src/placer.ts): choosing a stone, its orientation and its place among the legal
// placements it was given, turning it, stepping through its places, and the pointer's and
// the keys' part. The 3D view is a stand-in (its `pick` says which column the pointer is
// on); the tray's drawing (placertray.ts, ui.ts) and the texts (i18n.ts) are stand-ins too,
// so the test runs in Node.js without a DOM: only the choices are tested here.
import { beforeEach, describe, expect, test, vi } from "vitest";
import type { Placement, StoneInfo, Xyz } from "../src/api";

vi.mock("../src/i18n", () => ({ t: (key: string, opts?: object) => (opts ? `${key} ${JSON.stringify(opts)}` : key) }));
vi.mock("../src/ui", () => ({ h: vi.fn(), toast: vi.fn() }));
vi.mock("../src/placertray", () => ({ stonesGrid: vi.fn(), turnsPanel: vi.fn() }));

const { Placer } = await import("../src/placer");
const { toast } = await import("../src/ui");

// Two stones. I2, a domino: lying along the files (0), along the ranks (1), standing (2);
// a quarter turn about the vertical axis (axis 2) swaps 0 and 1, about a horizontal one
// stands it up or lays it down. L3: orientation 1's first
// cube on the ground is at (1, 0), so its anchor column is one file right of its corner.
const STONES: StoneInfo[] = [
  {
    code: "I2",
    size: 2,
    orientations: [
      [[0, 0, 0], [1, 0, 0]],
      [[0, 0, 0], [0, 1, 0]],
      [[0, 0, 0], [0, 0, 1]],
    ],
    turns: [
      [0, 2, 1],
      [2, 1, 0],
      [1, 0, 2],
    ],
  },
  {
    code: "L3",
    size: 3,
    orientations: [
      [[0, 0, 0], [1, 0, 0], [0, 1, 0]],
      [[1, 0, 0], [0, 1, 0], [1, 1, 0]],
    ],
    turns: [
      [0, 0, 1],
      [1, 1, 0],
    ],
  },
];

const name = (c: Xyz) => `${String.fromCharCode(97 + c[0])}${c[1] + 1}`;
const at = (stone: string, orientation: number, [sx, sy]: [number, number], z = 0): Placement => {
  const cubes = STONES.find((s) => s.code === stone)!.orientations[orientation].map(([x, y, h]) => [x + sx, y + sy, h + z] as Xyz);
  return { placement: `${stone}@${cubes.map(name).join(",")}`, stone, orientation, cubes };
};

// On a 4 × 4 board: I2 along rank 1 three times, along file a twice, standing once at d4;
// L3 once, in orientation 1.
const LEGAL: Placement[] = [
  at("I2", 0, [0, 0]),
  at("I2", 0, [1, 0]),
  at("I2", 0, [2, 0]),
  at("I2", 1, [0, 1]),
  at("I2", 1, [0, 2]),
  at("I2", 2, [3, 3]),
  at("L3", 1, [1, 1]),
];

function makePlacer() {
  const handlers: Record<string, (e: Partial<PointerEvent>) => void> = {};
  const view = {
    canvas: { addEventListener: (kind: string, f: (e: Partial<PointerEvent>) => void) => (handlers[kind] = f) },
    column: null as [number, number] | null,
    onGhost: false,
    pick() {
      return view.column;
    },
    hitsGhost() {
      return view.onGhost;
    },
  };
  const placed: string[] = [];
  const drawn: { ghost: string | null; cells: [number, number][]; cursor: [number, number] | null }[] = [];
  const placer = new Placer(view as never, new Map(STONES.map((s) => [s.code, s])), {
    place: (p) => placed.push(p.placement),
    draw: (ghost, cells, cursor) => drawn.push({ ghost: ghost?.placement ?? null, cells, cursor }),
  });
  placer.set(LEGAL, "R", true, ["I2", "L3"]);
  /** A click (or tap) on the column the view will say, by a mouse or a finger. */
  const click = (column: [number, number] | null, pointerType = "mouse") => {
    view.column = column;
    handlers.pointerdown({ clientX: 10, clientY: 10 });
    handlers.pointerup({ clientX: 11, clientY: 10, pointerType });
  };
  return { placer, view, placed, drawn, handlers, click, last: () => drawn[drawn.length - 1] };
}

beforeEach(() => {
  vi.mocked(toast).mockClear();
  vi.stubGlobal("document", { body: { dataset: {} } });
});

describe("Placer", () => {
  test("a stone is picked up in the orientation with the most places, the ghost on its first", () => {
    const { placer, last } = makePlacer();
    expect(placer.orientationCounts("I2")).toEqual(
      new Map([
        [0, 3],
        [1, 2],
        [2, 1],
      ]),
    );
    placer.select("I2");
    expect(placer.selected).toEqual({ stone: "I2", orientation: 0 });
    expect(placer.cursor).toEqual([0, 0]);
    expect(placer.current?.placement).toBe("I2@a1,b1");
    // The columns offered are the anchors of that orientation's places, and only those.
    expect(last()).toEqual({ ghost: "I2@a1,b1", cells: [[0, 0], [1, 0], [2, 0]], cursor: [0, 0] });
    expect(document.body.dataset.ghost).toBe("I2@a1,b1");
  });

  test("the anchor column is the orientation's first cube on the ground", () => {
    const { placer } = makePlacer();
    const l3 = LEGAL[6];
    expect(placer.anchorColumn(l3)).toEqual([2, 1]);
    expect(placer.anchorCube(l3)).toEqual([2, 1, 0]);
    expect(placer.anchorCube(at("I2", 2, [3, 3], 2))).toEqual([3, 3, 2]);
  });

  test("a stone without a legal place, or a disabled placer, picks nothing", () => {
    const { placer } = makePlacer();
    placer.set(LEGAL.filter((p) => p.stone === "I2"), "R", true, ["I2", "L3"]);
    placer.select("L3");
    expect(placer.selected).toBeNull();
    placer.set(LEGAL, "R", false, ["I2", "L3"]);
    placer.select("I2");
    expect(placer.selected).toBeNull();
  });

  test("turning changes the orientation by the stone's turn table; the ghost stays within reach or goes", () => {
    const { placer, last } = makePlacer();
    placer.select("I2");
    placer.turn(2); // about the vertical axis: along the ranks
    expect(placer.selected).toEqual({ stone: "I2", orientation: 1 });
    // The cursor is still a1: no place of orientation 1 has its anchor there, a2 is the nearest (1 away).
    expect(placer.cursor).toEqual([0, 0]);
    expect(placer.current?.placement).toBe("I2@a2,a3");
    expect(last().cells).toEqual([[0, 1], [0, 2]]);
    placer.turn(0); // orientation 1 about axis 0: standing, whose one place (d4) is out of reach
    expect(placer.selected?.orientation).toBe(2);
    expect(placer.current).toBeNull();
    expect(last().ghost).toBeNull();
    expect(document.body.dataset.ghost).toBe("");
  });

  test("picking an orientation moves the ghost to its place nearest the cursor", () => {
    const { placer } = makePlacer();
    placer.select("I2");
    placer.moveCursor(3, 0, 4, 4); // c1 is the rightmost, clamped to the board: d1
    expect(placer.cursor).toEqual([3, 0]);
    expect(placer.current?.placement).toBe("I2@c1,d1");
    placer.orient(2);
    expect(placer.cursor).toEqual([3, 3]);
    expect(placer.current?.placement).toBe("I2@d4,d4");
    // An orientation with no place is refused.
    placer.set(LEGAL.filter((p) => p.orientation !== 1), "R", true, ["I2", "L3"]);
    placer.orient(1);
    expect(placer.selected?.orientation).toBe(2);
  });

  test("the cursor moves within the board, and a place is exact or the nearest within reach", () => {
    const { placer } = makePlacer();
    placer.select("I2");
    placer.moveCursor(-5, 9, 4, 4);
    expect(placer.cursor).toEqual([0, 3]);
    // Anchors of orientation 0 are a1, b1, c1: all more than 1.5 away from a4.
    expect(placer.current).toBeNull();
    placer.moveCursor(1, -2, 4, 4);
    expect(placer.cursor).toEqual([1, 1]);
    expect(placer.current?.placement).toBe("I2@b1,c1");
  });

  test("cycling steps through every place of the stone, in every orientation, and wraps", () => {
    const { placer } = makePlacer();
    const seen: string[] = [];
    placer.cycle(1); // nothing picked: picks the first placement's stone, then its next place
    for (let i = 0; i < 6; i++) {
      seen.push(placer.current!.placement);
      placer.cycle(1);
    }
    expect(seen).toEqual(["I2@b1,c1", "I2@c1,d1", "I2@a2,a3", "I2@a3,a4", "I2@d4,d4", "I2@a1,b1"]);
    placer.cycle(-1);
    expect(placer.current?.placement).toBe("I2@a1,b1");
    placer.cycle(-1);
    expect(placer.current?.placement).toBe("I2@d4,d4");
    expect(placer.selected).toEqual({ stone: "I2", orientation: 2 });
  });

  test("stepping the stone skips stones without a place and keeps the chosen one's orientation", () => {
    const { placer } = makePlacer();
    placer.set(LEGAL, "R", true, ["I2", "X9", "L3"]);
    placer.stepStone(1);
    expect(placer.selected?.stone).toBe("I2");
    placer.stepStone(1);
    expect(placer.selected).toEqual({ stone: "L3", orientation: 1 });
    // The cursor stays at a1, whose nearest L3 place (anchor c2) is out of reach.
    expect(placer.current).toBeNull();
    placer.moveCursor(2, 1, 4, 4);
    expect(placer.current?.placement).toBe("L3@c2,b3,c3");
    placer.stepStone(1);
    expect(placer.selected?.stone).toBe("I2");
    placer.turn(2);
    placer.select("I2");
    expect(placer.selected?.orientation).toBe(1);
  });

  test("new placements drop a stone that is no longer left", () => {
    const { placer } = makePlacer();
    placer.select("L3");
    placer.set(LEGAL.filter((p) => p.stone === "I2"), "R", true, ["I2"]);
    expect(placer.selected).toBeNull();
    placer.select("I2");
    placer.set(LEGAL, "R", true, ["I2", "L3"]);
    expect(placer.selected?.stone).toBe("I2");
  });

  test("the keys turn, cycle, step and drop; other keys are not the placer's", () => {
    const { placer } = makePlacer();
    expect(placer.key("]", 4, 4)).toBe(true);
    expect(placer.selected).toEqual({ stone: "I2", orientation: 0 });
    placer.key("r", 4, 4);
    expect(placer.selected?.orientation).toBe(1);
    placer.key("T", 4, 4);
    expect(placer.selected?.orientation).toBe(2);
    placer.key("y", 4, 4);
    expect(placer.selected?.orientation).toBe(0);
    expect(placer.current?.placement).toBe("I2@a1,b1");
    placer.key("n", 4, 4);
    expect(placer.current?.placement).toBe("I2@b1,c1");
    placer.key("ArrowRight", 4, 4);
    expect(placer.cursor).toEqual([2, 0]);
    expect(placer.current?.placement).toBe("I2@c1,d1");
    expect(placer.key("Escape", 4, 4)).toBe(true);
    expect(placer.selected).toBeNull();
    expect(placer.key("x", 4, 4)).toBe(false);
  });

  test("only a ghost on a legal place is played, and only while enabled", () => {
    const { placer, placed } = makePlacer();
    placer.commit();
    placer.select("I2");
    placer.moveCursor(0, 3, 4, 4);
    placer.commit();
    expect(placed).toEqual([]);
    placer.moveCursor(0, -3, 4, 4);
    placer.commit();
    expect(placed).toEqual(["I2@a1,b1"]);
    placer.set(LEGAL, "R", false, ["I2", "L3"]);
    placer.commit();
    expect(placed).toEqual(["I2@a1,b1"]);
  });

  test("a mouse click places at once; a tap moves the ghost, and a tap on it places", () => {
    const { placer, placed, view, click } = makePlacer();
    click([1, 0]);
    expect(placed).toEqual([]);
    expect(toast).toHaveBeenLastCalledWith("game.toast.pick_first");
    placer.select("I2");
    click([1, 0]);
    expect(placed).toEqual(["I2@b1,c1"]);
    click([3, 2]);
    expect(toast).toHaveBeenLastCalledWith('game.toast.no_place_here {"stone":"I2"}');
    expect(placed).toEqual(["I2@b1,c1"]);
    // A finger: the first tap only moves the ghost, and says once that a second one places.
    click([2, 0], "touch");
    click([0, 0], "touch");
    expect(placed).toEqual(["I2@b1,c1"]);
    expect(placer.current?.placement).toBe("I2@a1,b1");
    expect(vi.mocked(toast).mock.calls.filter(([m]) => m === "game.toast.tap_again")).toHaveLength(1);
    view.onGhost = true;
    click([3, 3], "touch");
    expect(placed).toEqual(["I2@b1,c1", "I2@a1,b1"]);
  });

  test("a drag is not a click", () => {
    const { placer, placed, view, handlers } = makePlacer();
    placer.select("I2");
    view.column = [0, 0];
    handlers.pointerdown({ clientX: 10, clientY: 10 });
    handlers.pointerup({ clientX: 40, clientY: 10, pointerType: "mouse" });
    expect(placed).toEqual([]);
  });
});
