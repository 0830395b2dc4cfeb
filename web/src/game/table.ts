// Who sits at a game's table, and what a seated player may do besides moving: abort before
// the second move, ask for a rematch after the end (or accept or decline one offered, with
// the game's other next steps: `TableHooks.rematchSlot`). A quick-play game waiting for
// players counts down to the AI taking the free seats. The players' names go to the game
// page (`TableHooks.table`), which names them in its notices. Attached to the game page's
// panel; it follows the game's own events (seated, aborted, rematch_offered,
// rematch_declined, expired, rated) on the game page's socket (`follow`: one socket a game
// page) and asks the server for the table again, which says why a game was called off. While it is open it tells the server this
// player is here, so that a seek of theirs waiting for players does not expire.
import { tokens } from "../api";
import type { GameMessage } from "../api";
import type { EventStream } from "../engine/backend";
import { errorText } from "../errors";
import { t } from "../i18n";
import { h, toast } from "../ui";
import { keepPresence, me, players, sitDown } from "../players/api";
import type { Table } from "../wire";
import { playerLabel } from "../lobby/view";

const present = (...xs: (HTMLElement | null)[]) => xs.filter((x): x is HTMLElement => x !== null);

const REFRESH = new Set(["snapshot", "seated", "filled", "aborted", "rematch_offered", "rematch_declined", "expired", "rated", "game_over"]);

export interface TableHooks {
  /** Where the rematch buttons go (else under the seats). */
  rematchSlot?: HTMLElement;
  /** The table as read: the players' names by seat, and whether it is a lobby game. */
  table?(names: Map<number, string>, lobby: boolean): void;
}

/** "0:42": the time left to a moment of the server's (its clock and ours agree closely enough). */
const countdown = (at: number) => {
  const s = Math.max(0, Math.ceil((at - Date.now()) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

/** Why a game was called off, as the server keeps it: the banner's text (`null`: a game
 * called off before the server kept the reason, said as aborted). */
const CALLED_OFF: Record<NonNullable<Table["called_off"]>, string> = {
  aborted: "lobby.aborted",
  expired: "lobby.expired",
  rematch_declined: "lobby.rematchDeclined",
};

/** The game's events from the game page's socket (`GamePage.follow`). */
export type Follow = (onEvent: (e: GameMessage) => void, onStatus: (up: boolean) => void) => EventStream;

export function attachTable(id: string, slot: HTMLElement, follow: Follow, hooks: TableHooks = {}) {
  const box = h("div", { class: "table-box", id: "table-box" });
  slot.append(box);
  const rematchBox = hooks.rematchSlot ?? box;
  let ticking = 0;
  let table: Table | null = null;
  let shown = "";
  if (me.get()) keepPresence();
  const refresh = async () => {
    try {
      table = await players.table(id);
      // Redrawn only when it changed: a button is not replaced under a click.
      const now = JSON.stringify(table);
      if (now === shown) return;
      shown = now;
      const names = new Map(table.seats.flatMap((x) => (x.player ? [[x.seat, x.player.name] as const] : [])));
      hooks.table?.(names, table.lobby);
      render();
    } catch {
      /* the page says what is wrong with the game itself */
    }
  };
  const myToken = () => Object.values(tokens.get(id))[0] as string | undefined;
  const render = () => {
    clearInterval(ticking);
    if (rematchBox !== box) rematchBox.replaceChildren();
    if (!table || (!table.lobby && table.status !== "aborted")) return box.replaceChildren();
    const t0 = table;
    const names = t0.seats.map((s) =>
      h("li", { class: `seat-${s.state}` }, `${s.colours.join(" ")}: `, s.player ? playerLabel(s.player) : s.state === "ai" ? t("lobby.seat.ai", { level: s.level ?? 0 }) : t(`lobby.seat.${s.state === "taken" ? "guest" : "free"}`)),
    );
    const seated = !!myToken();
    // A rematch follows a game that was played: not one called off (an aborted game, or a
    // rematch declined), which offered its own Rematch button before.
    const played = t0.status === "finished" || t0.status === "abandoned";
    const iAmOffered = t0.rematch !== null;
    const offer = seated && played && t0.lobby && me.get();
    // Quick play: how long until the AI takes the free seats, counted down.
    const fill = t0.status === "waiting" && t0.fill_at ? h("span", { id: "fill-countdown", "data-fill-at": t0.fill_at }) : null;
    if (fill && t0.fill_at) {
      const at = t0.fill_at;
      const level = t0.fill_level ?? 3;
      const tick = () => (fill.textContent = t("lobby.fillIn", { level, time: countdown(at) }));
      tick();
      ticking = window.setInterval(tick, 1000);
    }
    const again = present(
      offer ? h("button", { id: "rematch", class: "primary", onclick: () => void rematch() }, iAmOffered ? t("lobby.rematchAccept") : t("lobby.rematch")) : null,
      offer && iAmOffered ? h("button", { id: "rematch-decline", onclick: () => void decline() }, t("lobby.rematchDecline")) : null,
    );
    box.replaceChildren(
      ...present(
      t0.status === "waiting" ? h("p", { class: "banner", id: "waiting" }, t("lobby.waiting", { count: t0.free_seats }), fill ? " " : "", fill) : null,
      t0.status === "aborted" ? h("p", { class: "banner", id: "aborted" }, t(CALLED_OFF[t0.called_off ?? "aborted"])) : null,
      h("ul", { class: "table-seats", id: "table-seats" }, ...names),
      t0.rated ? h("p", { class: "muted" }, t("lobby.rated")) : null,
      seated && t0.can_abort ? h("button", { id: "abort", onclick: () => void abort() }, t("lobby.abort")) : null,
      ),
    );
    rematchBox.append(...again);
  };
  const abort = async () => {
    const token = myToken();
    if (!token) return;
    try {
      await players.abort(id, token);
      await refresh();
    } catch (e) {
      toast(errorText(e), true);
    }
  };
  const rematch = async () => {
    try {
      sitDown(await players.rematch(id));
    } catch (e) {
      toast(errorText(e), true);
    }
  };
  const decline = async () => {
    try {
      await players.declineRematch(id);
      await refresh();
    } catch (e) {
      toast(errorText(e), true);
    }
  };
  follow(
    (e: GameMessage | { type: string }) => {
      // Why a game was called off is read with the table, not taken from the event: a page
      // that opens (or whose socket joins) after the event says it too.
      // A move may end the time for aborting (before the second move): look again then.
      if (REFRESH.has(e.type) || (e.type === "move" && table?.can_abort)) void refresh();
    },
    () => {},
  );
}
