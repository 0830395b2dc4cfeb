// The game page's logic past the store: the follower (src/game/follow.ts) that shows moves
// one after another, each dropping in before the next, and the result named for this
// browser's seat and the departures (src/game/result.ts). The 3D view and the texts are
// stand-ins; no DOM.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { GameState } from "../src/api";
import type { MoveShown } from "../src/game/store";

vi.mock("../src/i18n", () => ({ t: (key: string, opts?: object) => (opts ? `${key} ${JSON.stringify(opts)}` : key) }));
vi.mock("../src/ui", () => ({ colourName: (l: string) => ({ R: "Red", Y: "Yellow", G: "Green", B: "Blue" })[l] ?? l }));

const { Follower, DROP_MS } = await import("../src/game/follow");
const { departures, yourResult, resultLine } = await import("../src/game/result");

const state = (n: number) => ({ moves_played: n }) as unknown as GameState;
const move = (number: number, mine = false): MoveShown => ({
  number,
  colour: number % 2 ? "R" : "Y",
  placement: `I1@a${number}`,
  stone: "I1",
  cubes: [[0, number, 0]],
  mine,
  ai: false,
});

describe("Follower", () => {
  beforeEach(() => {
    vi.stubGlobal("window", {});
    vi.stubGlobal("document", { hidden: false });
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  function follower(animate = true) {
    const log: string[] = [];
    const view = {
      drop: (_cubes: unknown, colour: string) => {
        log.push(`drop ${colour}`);
        return new Promise<void>((r) => setTimeout(r, DROP_MS));
      },
      land: () => log.push("land"),
    };
    const f = new Follower(view as never, animate);
    f.on("show", ({ state, move, falling }) => log.push(`show ${state.moves_played}${move ? ` move ${move.number}` : ""}${falling ? " falling" : ""}`));
    f.on("landed", ({ move }) => log.push(`landed ${move?.number ?? "-"}`));
    f.on("busy", (b) => log.push(b ? "busy" : "idle"));
    return { f, log };
  }

  test("each move drops in before the next is shown, in order", async () => {
    const { f, log } = follower();
    f.move(move(1), state(1), null);
    f.move(move(2), state(2), null);
    expect(log).toEqual(["busy", "show 1 move 1 falling", "drop R"]);
    await vi.advanceTimersByTimeAsync(DROP_MS);
    expect(log.slice(3)).toEqual(["landed 1", "show 2 move 2 falling", "drop Y"]);
    await vi.advanceTimersByTimeAsync(DROP_MS);
    expect(log.slice(6)).toEqual(["landed 2", "idle"]);
    expect(f.shown.map((r) => [r.number, r.animated, r.landedAt !== null])).toEqual([
      [1, true, true],
      [2, true, true],
    ]);
    expect((window as unknown as { __rumisShownMoves: unknown }).__rumisShownMoves).toBe(f.shown);
  });

  test("our own move, a hidden page or dropping turned off shows it at once", async () => {
    const { f, log } = follower();
    f.move(move(1, true), state(1), null);
    // Nothing to wait for: shown, landed and done at once.
    expect(log).toEqual(["busy", "show 1 move 1", "landed 1", "idle"]);
    vi.stubGlobal("document", { hidden: true });
    f.move(move(2), state(2), null);
    const off = follower(false);
    off.f.move(move(3), state(3), null);
    expect(f.shown.map((r) => r.animated)).toEqual([false, false]);
    expect(off.f.shown[0].animated).toBe(false);
  });

  test("a whole new state drops the moves queued before it", async () => {
    const { f, log } = follower();
    f.move(move(1), state(1), null);
    f.move(move(2), state(2), null);
    f.reset(state(7), null);
    await vi.advanceTimersByTimeAsync(DROP_MS);
    expect(log).toEqual(["busy", "show 1 move 1 falling", "drop R", "landed 1", "show 7", "landed -", "idle"]);
  });

  test("skip lands the falling stone and shows what is queued at once", async () => {
    const { f, log } = follower();
    f.skip(); // nothing running: nothing to land
    f.move(move(1), state(1), null);
    f.move(move(2), state(2), null);
    f.move(move(3), state(3), null);
    f.skip();
    await vi.advanceTimersByTimeAsync(DROP_MS);
    expect(log).toEqual(["busy", "show 1 move 1 falling", "drop R", "land", "landed 1", "show 2 move 2", "landed 2", "show 3 move 3", "landed 3", "idle"]);
    // The next moves drop again.
    f.move(move(4), state(4), null);
    expect(log.at(-1)).toBe("drop Y");
  });
});

describe("the result", () => {
  const over = (extra: Partial<GameState>) =>
    ({
      over: true,
      status: "finished",
      hot_seat: false,
      seats: [0, 1, 2].map((seat) => ({ seat, colours: [["R", "Y", "G"][seat]], kind: "human", level: null })),
      colours: [
        { colour: "R", seat: 0, out: true },
        { colour: "Y", seat: 1, out: true },
        { colour: "G", seat: 2, out: true },
      ],
      players: [0, 1, 2],
      winners: [1],
      places: [2, 1, 3],
      ...extra,
    }) as unknown as GameState;

  test("is named for the one seat this browser holds", () => {
    expect(yourResult(over({}), (s) => s === 1)).toEqual({ kind: "win" });
    expect(yourResult(over({}), (s) => s === 0)).toEqual({ kind: "place", place: 2, count: 3 });
    expect(yourResult(over({ winners: [0, 1] }), (s) => s === 0)).toEqual({ kind: "share" });
    expect(yourResult(over({ players: [0, 1], places: null }), (s) => s === 2)).toEqual({ kind: "lose" });
    // Not for a game at one screen, one watched, one going on or one called off.
    expect(yourResult(over({}), () => true)).toBeNull();
    expect(yourResult(over({}), () => false)).toBeNull();
    expect(yourResult(over({ hot_seat: true }), (s) => s === 1)).toBeNull();
    expect(yourResult(over({ over: false }), (s) => s === 1)).toBeNull();
    expect(yourResult(over({ status: "aborted" }), (s) => s === 1)).toBeNull();
  });

  test("departures in order: resignations and timeouts, seats the AI took over, colours out", () => {
    const s = over({
      over: false,
      left: [
        { colour: "R", reason: "resigned", after_move: 4 },
        { colour: "Y", reason: "time", after_move: 6 },
      ],
      forfeited: [0, 1, 2],
      seats: [
        { seat: 0, colours: ["R"], kind: "ai", level: 3 },
        { seat: 1, colours: ["Y"], kind: "human", level: null },
        { seat: 2, colours: ["G"], kind: "ai", level: 3 },
      ],
      colours: [
        { colour: "R", seat: 0, out: true },
        { colour: "Y", seat: 1, out: false },
        { colour: "G", seat: 2, out: true },
      ],
    } as unknown as Partial<GameState>);
    expect(departures(s)).toEqual([
      { player: 0, colours: ["R"], why: "resigned", after: 4 },
      { player: 1, colours: ["Y"], why: "time", after: 6 },
      { player: 2, colours: ["G"], why: "left", after: null },
      { player: 2, colours: ["G"], why: "out", after: null },
    ]);
    expect(resultLine(over({ forfeited: [] }), new Map([[1, "Ana"]]))).toBe(
      `game.status.wins {"name":"game.ending.named {\\"name\\":\\"Ana\\",\\"colours\\":\\"Yellow\\"}"}`,
    );
  });
});
