// Local games, kept in this browser's IndexedDB (database `rumis`, store `games`, one
// entry per game): each is its record (the core's notation, rules §7) with the seats, so a
// reload resumes it and the download is the record itself. Games an older version kept in
// localStorage (`rumis.local.ID`) move into IndexedDB on the first `ready()`. Where
// IndexedDB cannot be opened (some private modes), localStorage stays the store.
//
// The pages read synchronously from a copy in memory, filled by `ready()` (which every
// page that touches local games awaits first); `save` writes through, in order.
import type { Seat } from "./protocol";

/** Who sits at a player's place: the engine's seat (protocol.ts). */
export type LocalSeat = Seat;

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

/** The localStorage keys of the version before IndexedDB (and of the fallback). */
const PREFIX = "rumis.local.";
const DB_NAME = "rumis";
const STORE = "games";

const valid = (g: unknown): g is LocalGame =>
  !!g && typeof (g as LocalGame).id === "string" && typeof (g as LocalGame).record === "string" && Array.isArray((g as LocalGame).seats);

/** Where the games are written: IndexedDB, or localStorage without it. */
interface Backing {
  all(): Promise<LocalGame[]>;
  put(g: LocalGame): Promise<void>;
}

const request = <T>(r: IDBRequest<T>) =>
  new Promise<T>((ok, fail) => {
    r.onsuccess = () => ok(r.result);
    r.onerror = () => fail(r.error ?? new Error("IndexedDB request failed"));
  });

const done = (tx: IDBTransaction) =>
  new Promise<void>((ok, fail) => {
    tx.oncomplete = () => ok();
    tx.onerror = tx.onabort = () => fail(tx.error ?? new Error("IndexedDB transaction failed"));
  });

function openDb(): Promise<IDBDatabase> {
  return new Promise((ok, fail) => {
    const r = indexedDB.open(DB_NAME, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(STORE, { keyPath: "id" });
    r.onsuccess = () => ok(r.result);
    r.onerror = () => fail(r.error ?? new Error("IndexedDB cannot be opened"));
    r.onblocked = () => fail(new Error("IndexedDB is blocked"));
  });
}

function fromLocalStorage(): LocalGame[] {
  const out: LocalGame[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key?.startsWith(PREFIX)) continue;
    try {
      const g = JSON.parse(localStorage.getItem(key) ?? "null");
      if (valid(g)) out.push(g);
    } catch {
      // Not a game: left alone.
    }
  }
  return out;
}

const storageBacking: Backing = {
  all: async () => fromLocalStorage(),
  put: async (g) => localStorage.setItem(PREFIX + g.id, JSON.stringify(g)),
};

function dbBacking(db: IDBDatabase): Backing {
  return {
    async all() {
      return (await request(db.transaction(STORE).objectStore(STORE).getAll())).filter(valid);
    },
    async put(g) {
      const tx = db.transaction(STORE, "readwrite");
      tx.objectStore(STORE).put(g);
      await done(tx);
    },
  };
}

/** Moves the games of localStorage into the database (the newer copy wins), then removes
 * them from localStorage — only once the database has them. */
async function migrate(db: IDBDatabase, have: LocalGame[]): Promise<LocalGame[]> {
  const old = fromLocalStorage();
  if (old.length === 0) return have;
  const byId = new Map(have.map((g) => [g.id, g]));
  const tx = db.transaction(STORE, "readwrite");
  for (const g of old) {
    const kept = byId.get(g.id);
    if (!kept || kept.updated < g.updated) {
      tx.objectStore(STORE).put(g);
      byId.set(g.id, g);
    }
  }
  await done(tx);
  for (const g of old) localStorage.removeItem(PREFIX + g.id);
  return [...byId.values()];
}

let backing: Backing = storageBacking;
const games = new Map<string, LocalGame>();
let loaded: Promise<void> | null = null;
/** The writes in order (each after the one before, whatever it did). */
let writes: Promise<void> = Promise.resolve();

async function load() {
  let all: LocalGame[];
  try {
    const db = await openDb();
    all = await migrate(db, await dbBacking(db).all());
    backing = dbBacking(db);
  } catch (e) {
    console.warn("local games stay in localStorage:", e);
    all = fromLocalStorage();
  }
  for (const g of all) games.set(g.id, g);
}

export const localGames = {
  /** Loads the games (once per page), moving any from localStorage. Never fails: without
   * IndexedDB the games stay in localStorage. */
  ready(): Promise<void> {
    loaded ??= load();
    return loaded;
  },
  /** A game (after `ready()`). */
  get(id: string): LocalGame | null {
    return games.get(id) ?? null;
  },
  /** Keeps a game; resolves once it is written (a reload then finds it). */
  async save(g: LocalGame): Promise<void> {
    await localGames.ready();
    g.updated = Date.now();
    const copy = structuredClone(g);
    games.set(g.id, copy);
    const write = writes.then(() => backing.put(copy));
    writes = write.catch(() => undefined);
    return write;
  },
  /** Every local game, newest first (after `ready()`). */
  list(): LocalGame[] {
    return [...games.values()].sort((a, b) => b.updated - a.updated);
  },
  newId(): string {
    const bytes = crypto.getRandomValues(new Uint8Array(6));
    return "L" + [...bytes].map((b) => b.toString(36).padStart(2, "0")).join("").slice(0, 10);
  },
};

/** The address of a local game's page (a query, so any static file server serves it). */
export const localGameUrl = (id: string) => `/?local=${encodeURIComponent(id)}`;
