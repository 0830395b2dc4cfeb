// The text mode's words (src/game/textwords.ts): a placement, a move, a column and the scores
// said from what the core answered. The texts are the English ones (locales/en/blind.json and
// common.json), put together by a stand-in for i18next's `t` (interpolation and one/other).
import { expect, test, vi } from "vitest";
import { readFileSync } from "node:fs";
import type { GameState } from "../src/wire";

const load = (f: string) => JSON.parse(readFileSync(new URL(`../src/locales/en/${f}.json`, import.meta.url), "utf8"));
const texts: Record<string, unknown> = { blind: load("blind"), common: load("common") };
function t(key: string, opts: Record<string, unknown> = {}): string {
  const path = key.split(".");
  let node: unknown = texts;
  for (const p of path.slice(0, -1)) node = (node as Record<string, unknown>)[p];
  const last = path[path.length - 1];
  const table = node as Record<string, string>;
  const text = table[last] ?? table[`${last}_${opts.count === 1 ? "one" : "other"}`];
  return text.replace(/\{\{(\w+)\}\}/g, (_, k) => String(opts[k]));
}
vi.mock("../src/i18n", () => ({ t }));
vi.mock("../src/ui", () => ({ colourName: (l: string) => t(`common.colour.${l}`) }));

const { cellNames, columnWords, findColumn, moveWords, placementWords, scoreWords } = await import("../src/game/textwords");

// A 5 × 7 corner of a board: cells named as the core names them (file letter, rank from 1).
const columns = [];
for (let x = 0; x < 5; x++) for (let y = 0; y < 7; y++) columns.push({ cell: `${"abcde"[x]}${y + 1}`, x, y, limit: 4, height: 0, top: null, cubes: [] });
columns[3 * 7 + 4] = { cell: "d5", x: 3, y: 4, limit: 3, height: 2, top: "Y", cubes: ["R", "Y"] };
const state = { position: { cube_count: 2, columns }, colours: [{ colour: "R", score: 5, stones_left: ["I1", "D2"] }, { colour: "Y", score: -1, stones_left: ["L4"] }] } as unknown as GameState;
const cells = cellNames(state);

test("a placement in words: its columns in notation order, its level", () => {
  expect(placementWords("L4", [[4, 6, 1], [3, 4, 1], [4, 5, 1], [3, 5, 1]], cells)).toBe("L4 on d5, d6, e6, e7, level 2");
  expect(moveWords("Y", "L4", [[3, 4, 1], [3, 5, 1], [4, 5, 1], [4, 6, 1]], "L4@d5,d6,e6,e7", cells)).toBe("Yellow placed L4 on d5, d6, e6, e7, level 2.");
});

test("a stone standing up: the cubes in one column counted, the levels it spans", () => {
  expect(placementWords("Y4", [[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]], cells)).toBe("Y4 on a1 (2 cubes), a2, b1, levels 1 to 2");
});

test("a move whose cubes are not known is said by its notation", () => {
  expect(moveWords("R", "D2", null, "D2@b3x2", cells)).toBe("Red placed D2@b3x2.");
});

test("what a column holds, from the bottom, and an empty one", () => {
  expect(columnWords(findColumn(state, " D5 ")!)).toBe("d5: height 2, height limit 3, Yellow on top; from the bottom: Red, Yellow.");
  expect(columnWords(findColumn(state, "a1")!)).toBe("a1: empty, height limit 4.");
  expect(findColumn(state, "z9")).toBeNull();
});

test("the scores and the stones left", () => {
  expect(scoreWords(state)).toBe("Red 5, 2 stones left; Yellow -1, 1 stone left.");
});
