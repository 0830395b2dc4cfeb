// The board file written from a draft, in the format `rumis boards --board-file` reads
// (boards/*.toml), with a map from each line to the field it holds — so that the core's
// "file:line: message" can be shown next to that field. And the way back: a board the core
// has read (its JSON) as a draft.
import type { CheckedBoard } from "../wire";
import { COUNTS } from "./state";
import type { Count, Draft, EvidenceDraft } from "./state";

/** What a line of the written file holds. */
export type Target =
  | { part: "head" }
  | { part: "name" | "aliases" | "provenance" | "source" }
  | { part: "grid"; row: number | null }
  | { part: "hmax"; count: Count | null }
  | { part: "frame"; count: Count | null }
  | { part: "evidence"; index: number };

export interface Written {
  text: string;
  /** `lines[n - 1]` is what line n holds. */
  lines: Target[];
}

/** A TOML basic string: quotes, backslashes and control characters escaped. */
export function quote(s: string): string {
  const body = s.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    if (c === "\\" || c === '"') return `\\${c}`;
    if (c === "\n") return "\\n";
    if (c === "\t") return "\\t";
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
  return `"${body}"`;
}

/** A number as typed: written bare when it is an integer, else quoted (the core then says why it is not one). */
const numberish = (s: string) => (/^\s*-?\d{1,6}\s*$/.test(s) ? s.trim() : quote(s));

const inline = (table: Partial<Record<Count, number>>) =>
  `{ ${COUNTS.filter((c) => table[c] !== undefined)
    .map((c) => `${c} = ${table[c]}`)
    .join(", ")} }`;

/** The grid character of a cell: '.' not buildable, '#' no printed height, else the height. */
const glyph = (c: number | null) => (c === null ? "." : c === 0 ? "#" : String(c));

export function writeToml(d: Draft): Written {
  const out: [string, Target][] = [];
  const add = (line: string, target: Target) => out.push([line, target]);
  add("# A Rumis board (rules §3), written by the board editor.", { part: "head" });
  add("# The grid lists the back rank first: '#' buildable, a digit a printed height, '.' not buildable.", { part: "head" });
  add(`name = ${quote(d.name)}`, { part: "name" });
  if (d.aliases.length) add(`aliases = [${d.aliases.map(quote).join(", ")}]`, { part: "aliases" });
  add(`provenance = ${quote(d.provenance)}`, { part: "provenance" });
  if (d.source.trim()) add(`source = ${quote(d.source)}`, { part: "source" });
  add('grid = """', { part: "grid", row: null });
  for (let y = d.ranks - 1; y >= 0; y--) {
    let row = "";
    for (let x = 0; x < d.files; x++) row += glyph(d.cells[x + y * d.files]);
    add(row, { part: "grid", row: y });
  }
  add('"""', { part: "grid", row: null });
  add("", { part: "head" });
  add("[hmax]", { part: "hmax", count: null });
  for (const c of COUNTS) add(`${c} = ${numberish(d.hmax[c])}`, { part: "hmax", count: c });
  const framed = COUNTS.filter((c) => d.frames[c].trim());
  if (framed.length) {
    add("", { part: "head" });
    add("[frames]", { part: "frame", count: null });
    for (const c of framed) add(`${c} = ${quote(d.frames[c].trim())}`, { part: "frame", count: c });
  }
  d.evidence.forEach((e, index) => {
    const at: Target = { part: "evidence", index };
    add("", at);
    add("[[evidence]]", at);
    add(`fact = ${quote(e.fact)}`, at);
    add(`source = ${quote(e.source)}`, at);
    for (const key of ["min_cells", "hmax", "reaches_level"] as const)
      if (Object.keys(e[key]).length) add(`${key} = ${inline(e[key])}`, at);
    if (e.frames_for) add(`frames_for = [${e.frames_for.join(", ")}]`, at);
  });
  return { text: out.map((l) => l[0]).join("\n") + "\n", lines: out.map((l) => l[1]) };
}

/** The draft a read board is: every field of its file, as the core read it. */
export function draftOf(b: CheckedBoard): Draft {
  const cells: (number | null)[] = new Array(b.files * b.ranks).fill(null);
  for (const c of b.footprint) cells[c.x + c.y * b.files] = c.printed ?? 0;
  const evidence: EvidenceDraft[] = b.evidence.map((e) => {
    const d: EvidenceDraft = { fact: e.fact, source: e.source, min_cells: {}, hmax: {}, reaches_level: {}, frames_for: null };
    for (const c of e.constraints) {
      if (c.kind === "frames_for") d.frames_for = c.counts ?? [];
      else if ((c.kind === "min_cells" || c.kind === "hmax" || c.kind === "reaches_level") && c.players && c.value !== undefined)
        d[c.kind][c.players as Count] = c.value;
    }
    return d;
  });
  return {
    name: b.name,
    aliases: [...b.aliases],
    provenance: b.provenance,
    source: b.source,
    files: b.files,
    ranks: b.ranks,
    cells,
    hmax: { 2: String(b.hmax["2"]), 3: String(b.hmax["3"]), 4: String(b.hmax["4"]) },
    frames: { 2: b.frames["2"]?.text ?? "", 3: b.frames["3"]?.text ?? "", 4: b.frames["4"]?.text ?? "" },
    evidence,
  };
}

/** A file name for a board's name: lower case letters, digits and dashes. */
export function fileName(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `${slug || "board"}.toml`;
}
