// The board editor's logic without a page: the draft's state (src/editor/state.ts), the
// file written from it with each line's field (toml.ts), and the checker (check.ts) that
// asks the core about the latest file a pause after the last change — here against a
// stand-in server. The round trip through the core itself is board-file.test.ts.
import { afterEach, describe, expect, test, vi } from "vitest";
import { EditorState, blankDraft, cellName, type Part } from "../src/editor/state";
import { draftOf, fileName, quote, writeToml, type CheckedBoard } from "../src/editor/toml";
import { Checker, namedCells, type Verdict } from "../src/editor/check";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function watched() {
  const state = new EditorState(blankDraft("Test"));
  const parts: Part[] = [];
  state.on("change", ({ part }) => parts.push(part));
  return { state, parts };
}

describe("EditorState", () => {
  test("a blank draft is 6 × 6, nothing buildable", () => {
    const d = blankDraft("Mine");
    expect([d.name, d.files, d.ranks, d.cells.length]).toEqual(["Mine", 6, 6, 36]);
    expect(d.cells.every((c) => c === null)).toBe(true);
  });

  test("painting sets cells on the grid, ignores those off it, and announces only a real change", () => {
    const { state, parts } = watched();
    state.paint([[0, 0], [5, 5], [6, 0], [-1, 2]], 3);
    expect(state.cell(0, 0)).toBe(3);
    expect(state.cell(5, 5)).toBe(3);
    expect(state.cell(6, 0)).toBeNull();
    expect(state.draft.cells.filter((c) => c !== null)).toHaveLength(2);
    state.paint([[0, 0]], 3);
    expect(parts).toEqual(["cells"]);
  });

  test("resizing keeps each cell's name (a1 front left) and clamps to the engine's limits", () => {
    const { state, parts } = watched();
    state.paint([[0, 0]], 0);
    state.paint([[2, 1]], 5);
    state.paint([[5, 5]], 1);
    state.resize(3, 2);
    expect([state.draft.files, state.draft.ranks]).toEqual([3, 2]);
    expect(state.cell(0, 0)).toBe(0);
    expect(state.cell(2, 1)).toBe(5);
    expect(state.draft.cells).toEqual([0, null, null, null, null, 5]);
    state.resize(4, 3);
    expect(state.cell(2, 1)).toBe(5);
    expect(state.cell(3, 2)).toBeNull();
    state.resize(4, 3); // the same size: no change
    state.resize(99, 0);
    expect([state.draft.files, state.draft.ranks]).toEqual([26, 1]);
    state.resize(Number.NaN, 500);
    expect([state.draft.files, state.draft.ranks]).toEqual([1, 128]);
    expect(parts).toEqual(["cells", "cells", "cells", "size", "size", "size", "size"]);
  });

  test("a frame from two corners in any order is written low corner first", () => {
    const { state, parts } = watched();
    state.setFrameCorners(3, [4, 0], [1, 2]);
    expect(state.draft.frames[3]).toBe("b1:e3");
    state.setFrame(2, "  a1:c3 ");
    expect(state.draft.frames[2]).toBe("a1:c3");
    expect(cellName(25, 127)).toBe("z128");
    expect(parts).toEqual(["frames", "frames"]);
  });

  test("meta, Hmax and evidence changes are announced by part", () => {
    const { state, parts } = watched();
    state.setMeta({ name: "Other", aliases: ["O"] });
    state.setHmax(4, "9");
    state.draft.evidence.push({ fact: "f", source: "s", min_cells: {}, hmax: {}, reaches_level: {}, frames_for: null });
    state.dropEvidence(0);
    state.load(blankDraft("New"));
    expect(parts).toEqual(["meta", "hmax", "evidence", "all"]);
    expect(state.draft.name).toBe("New");
  });
});

describe("the board file written from a draft", () => {
  const draft = () => {
    const d = blankDraft('Tricky "Board"\\');
    d.files = 3;
    d.ranks = 2;
    d.cells = [0, 2, null, null, 0, 9];
    d.aliases = ["T"];
    d.source = "p. 3\tline\none";
    d.hmax = { 2: "4", 3: " 5 ", 4: "six" };
    d.frames = { 2: "", 3: "a1:b2", 4: "" };
    d.evidence = [{ fact: "It stands.", source: "rulebook", min_cells: { 2: 3 }, hmax: {}, reaches_level: { 4: 2 }, frames_for: [3] }];
    return d;
  };

  test("writes every field, the back rank first, and knows what each line holds", () => {
    const { text, lines } = writeToml(draft());
    const rows = text.split("\n");
    expect(rows.at(-1)).toBe("");
    expect(rows.length - 1).toBe(lines.length);
    const find = (prefix: string) => rows.findIndex((l) => l.startsWith(prefix));
    expect(rows[find("name")]).toBe('name = "Tricky \\"Board\\"\\\\"');
    expect(rows[find("aliases")]).toBe('aliases = ["T"]');
    expect(rows[find("source")]).toBe('source = "p. 3\\tline\\none"');
    const grid = find('grid = """');
    expect(rows.slice(grid + 1, grid + 3)).toEqual([".#9", "#2."]);
    expect(lines.slice(grid + 1, grid + 3)).toEqual([
      { part: "grid", row: 1 },
      { part: "grid", row: 0 },
    ]);
    // Hmax as typed: an integer bare (trimmed), anything else quoted for the core to refuse.
    expect(rows.slice(find("[hmax]") + 1, find("[hmax]") + 4)).toEqual(["2 = 4", "3 = 5", '4 = "six"']);
    expect(lines[find("4 = ")]).toEqual({ part: "hmax", count: 4 });
    expect(rows[find("[frames]") + 1]).toBe('3 = "a1:b2"');
    expect(lines[find("[frames]") + 1]).toEqual({ part: "frame", count: 3 });
    const ev = find("[[evidence]]");
    expect(rows.slice(ev, ev + 6)).toEqual([
      "[[evidence]]",
      'fact = "It stands."',
      'source = "rulebook"',
      "min_cells = { 2 = 3 }",
      "reaches_level = { 4 = 2 }",
      "frames_for = [3]",
    ]);
    expect(lines.slice(ev - 1, ev + 6).every((l) => l.part === "evidence" && l.index === 0)).toBe(true);
  });

  test("leaves out what the draft does not have", () => {
    const { text } = writeToml(blankDraft("Plain"));
    expect(text).not.toMatch(/aliases|source|\[frames\]|evidence/);
    expect(text).toContain("\n......\n");
  });

  test("quotes control characters as escapes", () => {
    expect(quote("a\u0001b\u007f")).toBe('"a\\u0001b\\u007f"');
  });

  test("a board's file name is its name in lower case letters, digits and dashes", () => {
    expect(fileName("Machu Pícchu (2)!")).toBe("machu-picchu-2.toml");
    expect(fileName("¿?")).toBe("board.toml");
  });

  test("a board read by the core becomes the draft of its file", () => {
    const board = {
      name: "B",
      aliases: ["b"],
      provenance: "printed-rules",
      source: "s",
      files: 2,
      ranks: 2,
      footprint: [
        { cell: "a1", x: 0, y: 0, printed: null },
        { cell: "b2", x: 1, y: 1, printed: 4 },
      ],
      hmax: { "2": 3, "3": 4, "4": 5 },
      frames: { "2": null, "3": { text: "a1:b2", files: [0, 1], ranks: [0, 1] }, "4": null },
      evidence: [
        {
          fact: "f",
          source: "s",
          constraints: [
            { kind: "min_cells", players: 2, value: 2, text: "" },
            { kind: "frames_for", counts: [3], text: "" },
            { kind: "other", text: "" },
          ],
        },
      ],
    } as unknown as CheckedBoard;
    expect(draftOf(board)).toEqual({
      name: "B",
      aliases: ["b"],
      provenance: "printed-rules",
      source: "s",
      files: 2,
      ranks: 2,
      cells: [0, null, null, 4],
      hmax: { 2: "3", 3: "4", 4: "5" },
      frames: { 2: "", 3: "a1:b2", 4: "" },
      evidence: [{ fact: "f", source: "s", min_cells: { 2: 2 }, hmax: {}, reaches_level: {}, frames_for: [3] }],
    });
  });
});

describe("the checker", () => {
  test("the cells a message names are those on the grid, each once", () => {
    expect(namedCells("frame a1:c2 lies outside; b1 and a1 again, z9 off", 3, 2)).toEqual([
      [0, 0],
      [2, 1],
      [1, 0],
    ]);
  });

  /** A stand-in server: answers each check when told, in any order. */
  function server() {
    const asked: string[] = [];
    const answers: ((r: Response) => void)[] = [];
    vi.stubGlobal("fetch", (url: string, init: RequestInit) => {
      asked.push(`${init.method} ${url} ${JSON.parse(String(init.body)).toml.split("\n")[2]}`);
      return new Promise<Response>((r) => answers.push(r));
    });
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
    return { asked, answer: (i: number, status: number, body: unknown) => answers[i](json(status, body)) };
  }

  test("checks the latest file a pause after the last change, and drops an older answer", async () => {
    vi.stubGlobal("window", globalThis);
    vi.useFakeTimers();
    const srv = server();
    const checker = new Checker(250);
    const said: string[] = [];
    checker.on("pending", () => said.push("pending"));
    checker.on("verdict", (v: Verdict) => said.push(v.ok ? `ok ${v.board.name}` : `refused ${v.fault.line}`));
    const d = blankDraft("One");
    checker.request(writeToml(d), 6, 6);
    await vi.advanceTimersByTimeAsync(100);
    checker.request(writeToml({ ...d, name: "Two" }), 6, 6);
    await vi.advanceTimersByTimeAsync(249);
    expect(srv.asked).toEqual([]);
    expect(checker.busy).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    // One check, of the latest file.
    expect(srv.asked).toEqual(['POST /api/v1/boards/check name = "Two"']);
    checker.request(writeToml({ ...d, name: "Three" }), 6, 6);
    await vi.advanceTimersByTimeAsync(250);
    expect(srv.asked).toHaveLength(2);
    // The newer answer comes first; the older one, late, is dropped.
    srv.answer(1, 200, { board: { name: "Three" } });
    await vi.advanceTimersByTimeAsync(0);
    srv.answer(0, 200, { board: { name: "Two" } });
    await vi.advanceTimersByTimeAsync(0);
    expect(said).toEqual(["pending", "pending", "pending", "ok Three"]);
    expect(checker.verdict?.ok).toBe(true);
    expect(checker.busy).toBe(false);
  });

  test("a refusal points at the line's field and the cells its message names", async () => {
    vi.stubGlobal("window", globalThis);
    vi.useFakeTimers();
    const srv = server();
    const checker = new Checker(0);
    const d = blankDraft("Bad");
    d.frames[3] = "a1:z9";
    const written = writeToml(d);
    const line = written.text.split("\n").indexOf('3 = "a1:z9"') + 1;
    checker.request(written, 6, 6);
    await vi.advanceTimersByTimeAsync(0);
    const message = "frame a1:z9 for 3 players lies outside the 6 × 6 grid";
    srv.answer(0, 422, { error: "bad_board", reason: `board.toml:${line}: ${message}`, line, message });
    await vi.advanceTimersByTimeAsync(0);
    const v = checker.verdict!;
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.fault).toEqual({ code: "bad_board", reason: `board.toml:${line}: ${message}`, line, message });
    expect(v.target).toEqual({ part: "frame", count: 3 });
    expect(v.cells).toEqual([[0, 0]]);
  });
});
