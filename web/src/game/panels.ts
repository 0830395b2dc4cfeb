// The status line and the players' table, drawn from the state shown; the scores explain
// themselves ("seen from above − stones not placed").
import type { GameState, Letter } from "../wire";
import { t } from "../i18n";
import { colourName, h, swatch } from "../ui";
import type { Thinking } from "./store";
import { departures, resultLine } from "./result";
import type { Names } from "./result";
import { noMoreMoves } from "./ended";

export interface Seen {
  state: GameState;
  canPlay: boolean;
  thinking: Thinking | null;
  /** Moves after the one shown are known already (the page is catching up). */
  behind: boolean;
  replayAt: number | null;
  tokenFor(seat: number): string | null;
  /** Players' names where the page knows them. */
  names: Names;
  /** A seat this browser holds is to move, but first a stone lands or ours is being placed. */
  pending: "landing" | "placing" | null;
}

/** The names of a player's colours ("Red & Green"). */
export function playerName(s: GameState, p: number) {
  const seat = s.seats.find((x) => x.seat === p);
  return seat?.colours.map(colourName).join(" & ") ?? t("game.status.player", { n: p + 1 });
}

export function renderStatus(el: HTMLElement, v: Seen) {
  const s = v.state;
  el.replaceChildren();
  if (v.replayAt !== null) {
    el.append(t("game.status.replay", { at: v.replayAt, total: s.moves_played }));
  } else if (s.status === "waiting") {
    // A lobby game before its players are all there: nobody moves yet (the table says who is missing).
    el.append(t("game.status.waiting_players"));
  } else if (s.status === "aborted") {
    // Called off: nobody is to move any more (it said "Waiting for Red" before).
    el.append(t("game.status.aborted"));
  } else if (s.over) {
    // Why, when someone forfeited: "Yellow resigned — Red wins." (places and winners are the server's).
    el.append(h("strong", { id: "result-line" }, resultLine(s, v.names)));
  } else {
    const to = s.to_move as Letter;
    const seat = s.seats.find((x) => x.seat === s.seat_to_move);
    el.append(swatch(to), " ");
    if (v.canPlay) el.append(h("strong", {}, t("game.status.your_turn", { colour: colourName(to) })));
    else if (seat?.kind === "ai") {
      // The AI's search for this very move (its event came after the move before it).
      // Catching up, the AI has already thought this move through.
      const thinking = v.behind || (v.thinking?.move_number === s.move_number && v.thinking.colour === to);
      el.append(
        t("game.status.ai", { colour: colourName(to), level: seat.level ?? 0 }),
        " ",
        h("span", { class: "thinking", id: "ai-thinking", "data-thinking": String(thinking) }, thinking ? t("game.status.thinking") : t("game.status.to_move")),
      );
    } else if (seat && v.tokenFor(seat.seat) && v.pending) {
      // Our own turn, a moment before it can be played: not "Waiting for" ourselves.
      el.append(t(`game.status.${v.pending}`, { colour: colourName(to) }));
    } else el.append(t("game.status.waiting", { colour: colourName(to) }));
  }
  el.dataset.state = s.status === "aborted" ? "aborted" : s.status === "waiting" ? "waiting-players" : s.over ? "over" : v.canPlay ? "your-turn" : "waiting";
}

/** Columns showing this colour from above. */
export function topsOf(s: GameState, colour: Letter) {
  return s.position.columns.filter((col) => col.top === colour).length;
}

export function renderPlayers(el: HTMLElement, v: Seen) {
  const s = v.state;
  // A colour that forfeited says how, at the end too (resigned, out of time, left).
  const forfeit = new Map(departures(s).flatMap((d) => (d.why === "out" ? [] : d.colours.map((c) => [c, d.why] as const))));
  const rows = s.colours.map((c) => {
    const seat = s.seats.find((x) => x.colours.includes(c.colour));
    const who =
      seat?.kind === "ai"
        ? t("game.players.ai", { level: seat.level ?? 0 })
        : seat && v.tokenFor(seat.seat)
          ? s.hot_seat
            ? t("game.players.here")
            : t("game.players.you")
          : t("game.players.human");
    const tops = topsOf(s, c.colour);
    const score = c.score ?? 0;
    // The score is the server's; what is not seen from above is what the stones left cost.
    const left = tops - score;
    const moving = c.colour === s.to_move && !noMoreMoves(s);
    const outMark = c.out && !s.over && !forfeit.has(c.colour);
    return h(
      "tr",
      { class: `${moving ? "to-move" : ""} ${c.out && !s.over ? "out" : ""}`, "data-colour": c.colour },
      h("td", {}, moving ? "▶" : ""),
      h(
        "td",
        { class: forfeit.has(c.colour) ? "name forfeited" : outMark ? "name marked" : "name" },
        swatch(c.colour),
        forfeit.has(c.colour) || outMark ? "\u00a0" : " ",
        colourName(c.colour),
        // Under the name, where the table has room for it (a column of its own was too wide in
        // German, and "bloqué" in one made the table wider than a phone in French).
        forfeit.has(c.colour) ? h("span", { class: "forfeit", "data-why": forfeit.get(c.colour)! }, t(`game.players.why_${forfeit.get(c.colour)}`)) : "",
        outMark ? h("span", { class: "out-mark" }, t("game.players.out")) : "",
      ),
      h("td", { class: "who" }, who),
      h("td", { class: "left", title: t("game.players.left_title") }, t("game.players.left", { count: c.stones_left.length })),
      h(
        "td",
        { class: "score", "data-score": String(score), "data-tops": tops, "data-penalty": left, title: t("game.players.score_title", { tops, left, score }) },
        h("span", { class: "parts" }, `${tops} − ${left} =`),
        " ",
        h("strong", {}, score < 0 ? `−${-score}` : String(score)),
      ),
    );
  });
  el.replaceChildren(
    h(
      "table",
      {},
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th"),
          h("th", {}, t("game.players.colour")),
          h("th", {}, t("game.players.seat")),
          h("th", {}, t("game.players.stones")),
          h("th", { class: "score", title: t("game.players.score_head_title") }, t("game.players.score_head")),
        ),
      ),
      h("tbody", {}, ...rows),
    ),
  );
  if (s.site.variant === "two-player-four-colors") {
    el.append(h("p", { class: "small" }, s.players.map((p, i) => `${playerName(s, i)}: ${p}`).join(" · "), " ", t("game.players.better")));
  }
}
