// Where a guided game stands, per game in localStorage, so a reload resumes it: the steps
// already read, the one showing, or that the guide was skipped.
export interface Progress {
  seen: string[];
  current: string | null;
  skipped: boolean;
  /** The position (moves played) at which a step was last read. */
  readAt: number | null;
}

const key = (id: string) => `rumis.tutorial.${id}`;

export function markTutorial(id: string) {
  saveProgress(id, { seen: [], current: null, skipped: false, readAt: null });
}

/** The progress of a guided game, or null when this game is not one. */
export function loadProgress(id: string): Progress | null {
  try {
    const p = JSON.parse(localStorage.getItem(key(id)) ?? "null");
    if (!p || !Array.isArray(p.seen)) return null;
    return {
      seen: p.seen.filter((s: unknown) => typeof s === "string"),
      current: typeof p.current === "string" ? p.current : null,
      skipped: !!p.skipped,
      readAt: typeof p.readAt === "number" ? p.readAt : null,
    };
  } catch {
    return null;
  }
}

export function saveProgress(id: string, p: Progress) {
  localStorage.setItem(key(id), JSON.stringify(p));
}
