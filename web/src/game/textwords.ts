// The text mode's words: a placement, a move, a column and the scores said in words, from
// what the core answered (the cubes of a placement, the columns of the position). Nothing
// here decides a rule: a level is a cube's height as the core gave it, a cell's name is the
// core's.
import type { Xyz } from "../api";
import type { ColumnInfo, GameState, Letter } from "../wire";
import { t } from "../i18n";
import { colourName } from "../ui";

/** The core's name of each cell ("d5"), by its coordinates. */
export function cellNames(s: GameState): Map<string, string> {
  return new Map(s.position.columns.map((c) => [`${c.x},${c.y}`, c.cell]));
}

/** "L4 on d5, d6, e6, e7, level 2": the stone, the columns it covers and its levels. */
export function placementWords(stone: string, cubes: Xyz[], cells: Map<string, string>): string {
  const counts = new Map<string, number>();
  for (const [x, y] of cubes) {
    const k = `${x},${y}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  // In the order of the notation: by file, then by rank.
  const columns = [...counts.keys()]
    .map((k) => k.split(",").map(Number) as [number, number])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([x, y]) => {
      const cell = cells.get(`${x},${y}`) ?? `${x},${y}`;
      const n = counts.get(`${x},${y}`)!;
      return n > 1 ? t("blind.stacked", { cell, count: n }) : cell;
    });
  const low = Math.min(...cubes.map((c) => c[2])) + 1;
  const high = Math.max(...cubes.map((c) => c[2])) + 1;
  const levels = low === high ? t("blind.level", { level: low }) : t("blind.levels", { from: low, to: high });
  return t("blind.placement", { stone, columns: columns.join(", "), levels });
}

/** "Yellow placed L4 on d5, d6, e6, e7, level 2." */
export function moveWords(colour: Letter, stone: string, cubes: Xyz[] | null, placement: string, cells: Map<string, string>): string {
  const what = cubes?.length ? placementWords(stone, cubes, cells) : placement;
  return t("blind.move", { colour: colourName(colour), what });
}

/** What a column holds, from the bottom up, and its height limit. */
export function columnWords(c: ColumnInfo): string {
  if (!c.cubes.length) return t("blind.column_empty", { cell: c.cell, limit: c.limit });
  return t("blind.column_holds", {
    cell: c.cell,
    height: c.height,
    limit: c.limit,
    top: colourName(c.top ?? c.cubes[c.cubes.length - 1]),
    cubes: c.cubes.map((l) => colourName(l)).join(", "),
  });
}

/** Each colour's score and stones left: "Red 5, 3 stones left; Yellow 4, 5 stones left." */
export function scoreWords(s: GameState): string {
  return s.colours.map((c) => t("blind.score_line", { colour: colourName(c.colour), score: c.score ?? 0, count: c.stones_left.length })).join("; ") + ".";
}

/** The column a reader names ("D5", " d5 "), among the core's cells; null if none is so named. */
export function findColumn(s: GameState, name: string): ColumnInfo | null {
  const want = name.trim().toLowerCase();
  return s.position.columns.find((c) => c.cell.toLowerCase() === want) ?? null;
}
