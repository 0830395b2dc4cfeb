// Starting the guided first game: Chullpa, two players, you (yellow) against the gentlest
// AI (red, who opens), so that your first stone meets the first-stone rule: on the board,
// touching the structure.
// The game is an ordinary one; only this browser remembers it as a tutorial, so the page
// of the game attaches the guide (see `tutorial/overlay.ts`). Without a server it is a
// local game, played by the engine in this browser.
import { api, tokens } from "../api";
import { serverOr } from "../engine/fallback";
import { localBackend } from "../engine/local";
import { markTutorial } from "./progress";

export const GUIDED_SETUP = {
  board: "Chullpa",
  players: 2,
  variant: "standard",
  hot_seat: false,
  seats: [{ kind: "ai", level: 1 }, { kind: "human" }],
};

/** Creates the game, keeps its seat token, marks it as a tutorial; returns where to go. */
export async function startGuidedGame(): Promise<string> {
  return startGame(true);
}

/** After the guided game: the same game, against the same AI (level 1), without the guide. */
export async function startRealGame(): Promise<string> {
  return startGame(false);
}

async function startGame(guided: boolean): Promise<string> {
  return serverOr(
    async () => {
      const created = await api.create(GUIDED_SETUP);
      const mine = created.seats.find((s) => s.token);
      if (mine) tokens.add(created.id, mine.seat, mine.token!);
      if (guided) markTutorial(created.id);
      return `/game/${created.id}`;
    },
    async () => {
      const seats = GUIDED_SETUP.seats.map((s) => ({ kind: s.kind as "human" | "ai", level: s.level ?? null }));
      const url = await localBackend.create({ ...GUIDED_SETUP, seats });
      const id = new URL(url, location.href).searchParams.get("local");
      if (id && guided) markTutorial(id);
      return url;
    },
  );
}
