// The board editor's file through the core: a draft written as a file (src/editor/toml.ts),
// read by the core (the engine module's `check_board`, the one the server and the offline
// editor answer with) and made a draft again is the same draft — for every built-in board
// (their evidence too) and for a board of one's own with text that must be escaped. A bad
// draft is refused with the core's sentence and the line of the field that is wrong.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, test } from "vitest";
import { blankDraft, type Draft } from "../src/editor/state";
import { draftOf, writeToml, type CheckedBoard } from "../src/editor/toml";
import { instantiate, type EngineModule } from "../src/engine/module";
// @ts-expect-error: a script of the build, in JavaScript
import { buildWasmModules } from "../scripts/wasm.mjs";

let engine: EngineModule;
beforeAll(async () => {
  // Built here too (cargo finds it up to date when the build or another test made it), so
  // that this file runs alone.
  const built = await buildWasmModules();
  engine = await instantiate(readFileSync(built.scalar));
}, 1_800_000);

type Answer = { board?: CheckedBoard; error?: string; reason?: string; line?: number; message?: string };
const check = (toml: string) => engine.call({ cmd: "check_board", toml }) as Answer;

/** The draft's file, read by the core, as a draft. */
function roundTrip(d: Draft): Draft {
  const answer = check(writeToml(d).text);
  expect(answer.error, answer.reason).toBeUndefined();
  return draftOf(answer.board!);
}

describe("a board file written and read back", () => {
  test("every built-in board comes back as itself", () => {
    const names = (engine.call({ cmd: "boards" }) as { boards: { name: string }[] }).boards.map((b) => b.name);
    expect(names).toHaveLength(6);
    for (const name of names) {
      const { toml } = engine.call({ cmd: "board_toml", name }) as { toml: string };
      const draft = draftOf(check(toml).board!);
      expect(draft.name).toBe(name);
      expect(draft.cells.some((c) => c !== null)).toBe(true);
      expect(roundTrip(draft), name).toEqual(draft);
    }
    // At least one of them carries evidence, so that its writing is covered too.
    const evidence = names.flatMap((name) => draftOf(check((engine.call({ cmd: "board_toml", name }) as { toml: string }).toml).board!).evidence);
    expect(evidence.length).toBeGreaterThan(0);
  });

  test("a board of one's own, with quotes, backslashes and a tab in its text", () => {
    const d = blankDraft('Mine "quoted" \\ back');
    d.files = 4;
    d.ranks = 3;
    d.cells = [0, 0, 2, null, 0, 3, 0, 0, null, 0, 1, 0];
    d.aliases = ["m\u00edne", "tab\there"];
    d.source = "drawn by hand";
    d.hmax = { 2: "3", 3: "4", 4: "4" };
    d.frames = { 2: "a1:c2", 3: "", 4: "" };
    expect(roundTrip(d)).toEqual(d);
  });
});

describe("a bad draft", () => {
  test("is refused with the core's sentence and the line of the wrong field", () => {
    const d = blankDraft("Bad");
    d.cells[0] = 0;
    d.cells[1] = 0;
    d.hmax[3] = "six";
    const written = writeToml(d);
    const answer = check(written.text);
    expect(answer.error).toBe("bad_board");
    expect(answer.line).toBe(written.text.split("\n").indexOf('3 = "six"') + 1);
    expect(written.lines[answer.line! - 1]).toEqual({ part: "hmax", count: 3 });
    expect(answer.reason).toMatch(new RegExp(`:${answer.line}: `));
    expect(answer.message).toMatch(/\S/);
  });

  test("a board with no buildable cell is refused", () => {
    const answer = check(writeToml(blankDraft("Empty")).text);
    expect(answer.error).toBe("bad_board");
    expect(answer.message).toMatch(/\S/);
  });
});
