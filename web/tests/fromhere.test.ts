// "Play from here" on the server (src/game/fromhere.ts): the request made from a replayed
// position — its setup as the state states it, its moves written as a record's (rules §7,
// a colour that left at its point with its reason), this browser's person in the seat to
// move and the AI at the level chosen in the others. The server's core judges the moves;
// this only writes them down. No DOM, no server.
import { describe, expect, test, vi } from "vitest";
import type { GameState } from "../src/wire";

vi.mock("../src/i18n", () => ({ t: (key: string) => key }));
vi.mock("../src/ui", () => ({ h: () => null }));

const { fromHereRequest, movesText } = await import("../src/game/fromhere");

const move = (number: number, colour: string, placement: string) => ({ number, colour, placement, created: 0, passed: [] });

function state(over: Partial<GameState> = {}): GameState {
  return {
    site: { board: "Pirka", players: 3, variant: "standard", colours: ["Y", "R", "G"], ruins: [], stuck_rule: "pass", custom: false, board_file: null },
    seats: [2, 0, 1].map((seat) => ({ seat, colours: [["Y", "R", "G"][seat]], kind: "ai", level: 1 })),
    seat_to_move: 1,
    moves: [move(1, "Y", "D2@a1,b1"), move(2, "R", "I3@c1x3"), move(3, "Y", "V3@a2,b2,b3")],
    left: [],
    ...over,
  } as unknown as GameState;
}

describe("movesText", () => {
  test("numbers the placements as a record does", () => {
    expect(movesText(state())).toBe("1. D2@a1,b1 2. I3@c1x3 3. V3@a2,b2,b3");
  });

  test("writes a colour that left at its point, with its reason, and after the last move", () => {
    const left = [
      { colour: "G", after_move: 2, reason: "resigned" },
      { colour: "R", after_move: 3, reason: null },
    ] as GameState["left"];
    expect(movesText(state({ left }))).toBe("1. D2@a1,b1 2. I3@c1x3 G:out {resigned} 3. V3@a2,b2,b3 R:out");
  });

  test("is empty at the start", () => {
    expect(movesText(state({ moves: [] }))).toBe("");
  });
});

describe("fromHereRequest", () => {
  test("the person takes the seat to move, the AI at the level chosen every other, in seat order", () => {
    const body = fromHereRequest("0123456789abcdef", state(), 4);
    expect(body).toEqual({
      board: "Pirka",
      players: 3,
      variant: "standard",
      colours: ["Y", "R", "G"],
      stuck_rule: "pass",
      seats: [{ kind: "ai", level: 4 }, { kind: "human" }, { kind: "ai", level: 4 }],
      moves: "1. D2@a1,b1 2. I3@c1x3 3. V3@a2,b2,b3",
      from_game: "0123456789abcdef",
    });
  });

  test("a Ruinas game carries its ruins, a board of one's own its file", () => {
    const ruinas = state({ site: { ...state().site, variant: "ruinas", ruins: ["D2@a1,a2", "I3@c3x3"] } });
    expect(fromHereRequest("0123456789abcdef", ruinas, 2).ruins).toEqual(["D2@a1,a2", "I3@c3x3"]);
    const own = state({ site: { ...state().site, custom: true, board_file: "name = \"Patio\"\n" } });
    const body = fromHereRequest("0123456789abcdef", own, 2) as Record<string, unknown>;
    expect([body.board, body.board_file, body.ruins]).toEqual([undefined, "name = \"Patio\"\n", undefined]);
  });
});
