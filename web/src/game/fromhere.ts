// "Play from here" on the server (issue #53): a new server game from the position a server
// game's replay shows, this browser's person to move and the AI at a chosen level in every
// other seat (as the local choice has it, engine/local.ts). What is sent is the position as
// the server stated it — its state's setup, and its moves written as a record's (rules §7)
// — with the game it comes from; the server's core plays the moves and checks that they are
// that game's, and the new game is unrated (docs/server-api.md, "A game from a position").
import { api, tokens } from "../api";
import type { GameState } from "../wire";
import { t } from "../i18n";
import { h } from "../ui";

/** A state's moves as a record writes them: `1. D2@b2x2 2. V3@a1,a2,b2 G:out {resigned} 3. …`. */
export function movesText(s: GameState): string {
  const leaving = (k: number) => s.left.filter((l) => l.after_move === k).map((l) => (l.reason ? `${l.colour}:out {${l.reason}}` : `${l.colour}:out`));
  const items = s.moves.flatMap((m, i) => [...leaving(i), `${m.number}. ${m.placement}`]);
  return [...items, ...leaving(s.moves.length)].join(" ");
}

/** The body of `POST /api/v1/games` that makes a game from `s`'s position in game `source`. */
export function fromHereRequest(source: string, s: GameState, level: number) {
  const mover = s.seat_to_move ?? 0;
  const board = s.site.custom && s.site.board_file ? { board_file: s.site.board_file } : { board: s.site.board };
  return {
    ...board,
    players: s.site.players,
    variant: s.site.variant,
    colours: s.site.colours,
    stuck_rule: s.site.stuck_rule,
    ...(s.site.variant === "ruinas" ? { ruins: s.site.ruins } : {}),
    seats: [...s.seats].sort((a, b) => a.seat - b.seat).map((x) => (x.seat === mover ? { kind: "human" } : { kind: "ai", level })),
    moves: movesText(s),
    from_game: source,
  };
}

/** Makes the game on the server and keeps its seat's token here; resolves to its page. */
export async function playFromOnServer(source: string, s: GameState, level: number): Promise<string> {
  const created = await api.create(fromHereRequest(source, s, level));
  for (const x of created.seats) if (x.token) tokens.add(created.id, x.seat, x.token);
  return `/game/${created.id}`;
}

/** Where a game made from a position began, and that it is not rated (empty for any other game). */
export function renderFromPosition(el: HTMLElement, s: GameState) {
  const f = s.from_position;
  el.hidden = !f;
  if (!f) return el.replaceChildren();
  const source = f.game ? [" ", h("a", { href: `/game/${encodeURIComponent(f.game)}`, id: "from-game" }, t("game.from_position.source"))] : [];
  el.replaceChildren(h("span", {}, t("game.from_position.text", { number: f.moves })), ...source);
}
