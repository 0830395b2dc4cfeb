// The board being edited: what a board file holds (rules §3), as the person has set it so
// far. It checks nothing — a draft may be any board, good or bad; the core judges the file
// written from it (check.ts). Every change is announced as a typed event.

/** A small typed event emitter: `on("change", f)`, `emit("change", value)`. */
export class Emitter<E> {
  private listeners: { [K in keyof E]?: ((value: E[K]) => void)[] } = {};

  on<K extends keyof E>(kind: K, f: (value: E[K]) => void) {
    (this.listeners[kind] ??= []).push(f);
  }

  emit<K extends keyof E>(kind: K, value: E[K]) {
    for (const f of this.listeners[kind] ?? []) f(value);
  }
}

export const COUNTS = [2, 3, 4] as const;
export type Count = (typeof COUNTS)[number];

/** The engine's limits on the grid, as the core states them (board.rs), for the inputs' ranges. */
export const MAX_FILES = 26;
export const MAX_RANKS = 128;

/** A cell: `null` not buildable, 0 buildable with no printed height, 1–9 a printed height. */
export type Cell = number | null;

/** A sourced fact kept from the file it came in (the editor shows and can drop it). */
export interface EvidenceDraft {
  fact: string;
  source: string;
  min_cells: Partial<Record<Count, number>>;
  hmax: Partial<Record<Count, number>>;
  reaches_level: Partial<Record<Count, number>>;
  frames_for: number[] | null;
}

export interface Draft {
  name: string;
  aliases: string[];
  provenance: "printed-rules" | "reconstruction";
  source: string;
  files: number;
  ranks: number;
  /** Per cell, `x + y * files` (x the file, y the rank, a1 = 0). */
  cells: Cell[];
  /** Hmax per player count, as typed (the core says whether it is a height). */
  hmax: Record<Count, string>;
  /** The red frame per player count as typed ("a1:e8"), "" for none. */
  frames: Record<Count, string>;
  evidence: EvidenceDraft[];
}

/** What a change touched, so that views redraw only their part. */
export type Part = "meta" | "size" | "cells" | "hmax" | "frames" | "evidence" | "all";

export interface StateEvents {
  change: { part: Part };
}

/** The name of a cell: file letter then rank number, `a1` front left (as the core names them). */
export const cellName = (x: number, y: number) => `${String.fromCharCode(97 + x)}${y + 1}`;

export function blankDraft(name: string): Draft {
  const files = 6;
  const ranks = 6;
  return {
    name,
    aliases: [],
    provenance: "reconstruction",
    source: "",
    files,
    ranks,
    cells: new Array(files * ranks).fill(null),
    hmax: { 2: "4", 3: "6", 4: "8" },
    frames: { 2: "", 3: "", 4: "" },
    evidence: [],
  };
}

export class EditorState extends Emitter<StateEvents> {
  constructor(public draft: Draft) {
    super();
  }

  private changed(part: Part) {
    this.emit("change", { part });
  }

  /** Replace the whole board (a new one, an upload, a built-in one). */
  load(draft: Draft) {
    this.draft = draft;
    this.changed("all");
  }

  cell(x: number, y: number): Cell {
    const d = this.draft;
    return x >= 0 && y >= 0 && x < d.files && y < d.ranks ? d.cells[x + y * d.files] : null;
  }

  /** Set several cells at once (one stroke of the brush); announces only a real change. */
  paint(cells: [number, number][], value: Cell) {
    const d = this.draft;
    let any = false;
    for (const [x, y] of cells) {
      if (x < 0 || y < 0 || x >= d.files || y >= d.ranks) continue;
      const i = x + y * d.files;
      if (d.cells[i] !== value) {
        d.cells[i] = value;
        any = true;
      }
    }
    if (any) this.changed("cells");
  }

  /** A new grid size; cells keep their names (a1 stays front left), the rest are not buildable. */
  resize(files: number, ranks: number) {
    const d = this.draft;
    files = Math.max(1, Math.min(MAX_FILES, Math.floor(files) || 1));
    ranks = Math.max(1, Math.min(MAX_RANKS, Math.floor(ranks) || 1));
    if (files === d.files && ranks === d.ranks) return;
    const cells: Cell[] = new Array(files * ranks).fill(null);
    for (let y = 0; y < Math.min(ranks, d.ranks); y++)
      for (let x = 0; x < Math.min(files, d.files); x++) cells[x + y * files] = d.cells[x + y * d.files];
    Object.assign(d, { files, ranks, cells });
    this.changed("size");
  }

  setMeta(meta: Partial<Pick<Draft, "name" | "aliases" | "provenance" | "source">>) {
    Object.assign(this.draft, meta);
    this.changed("meta");
  }

  setHmax(count: Count, value: string) {
    this.draft.hmax[count] = value;
    this.changed("hmax");
  }

  /** The frame for `count` players: a rectangle's text, or "" for none. */
  setFrame(count: Count, text: string) {
    this.draft.frames[count] = text.trim();
    this.changed("frames");
  }

  /** A frame from two corners of the grid (a drag), in the file's words ("a1:c2"). */
  setFrameCorners(count: Count, [x0, y0]: [number, number], [x1, y1]: [number, number]) {
    const lo = cellName(Math.min(x0, x1), Math.min(y0, y1));
    const hi = cellName(Math.max(x0, x1), Math.max(y0, y1));
    this.setFrame(count, `${lo}:${hi}`);
  }

  dropEvidence(index: number) {
    this.draft.evidence.splice(index, 1);
    this.changed("evidence");
  }
}
