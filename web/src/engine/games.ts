// Local games, kept in this browser's localStorage: each is its record (the core's
// notation, rules §7) with the seats, so a reload resumes it and the download is the
// record itself.
export interface LocalSeat {
  kind: "human" | "ai";
  level?: number | null;
}

export interface LocalGame {
  id: string;
  record: string;
  seats: LocalSeat[];
  hot_seat: boolean;
  /** The seed of the AI's choices (each move adds its number). */
  seed: number;
  created: number;
  updated: number;
}

const PREFIX = "rumis.local.";

export const localGames = {
  get(id: string): LocalGame | null {
    try {
      const g = JSON.parse(localStorage.getItem(PREFIX + id) ?? "null") as LocalGame | null;
      return g && typeof g.record === "string" ? g : null;
    } catch {
      return null;
    }
  },
  save(g: LocalGame) {
    g.updated = Date.now();
    localStorage.setItem(PREFIX + g.id, JSON.stringify(g));
  },
  /** Every local game, newest first. */
  list(): LocalGame[] {
    const out: LocalGame[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key?.startsWith(PREFIX)) continue;
      const g = localGames.get(key.slice(PREFIX.length));
      if (g) out.push(g);
    }
    return out.sort((a, b) => b.updated - a.updated);
  },
  newId(): string {
    const bytes = crypto.getRandomValues(new Uint8Array(6));
    return "L" + [...bytes].map((b) => b.toString(36).padStart(2, "0")).join("").slice(0, 10);
  },
};

/** The address of a local game's page (a query, so any static file server serves it). */
export const localGameUrl = (id: string) => `/?local=${encodeURIComponent(id)}`;
