// Who sits at a game's table, and what a seated player may do besides moving: abort before
// the second move, ask for a rematch after the end (or accept one offered). Attached to the
// game page's panel; it follows the game's own events (seated, aborted, rematch_offered,
// rated) on a socket of its own and asks the server for the table again.
import { Events, tokens } from "../api";
import type { GameEvent } from "../api";
import { errorText } from "../errors";
import { t } from "../i18n";
import { h, toast } from "../ui";
import { me, players, sitDown } from "../players/api";
import type { Table } from "../players/api";
import { playerLabel } from "../lobby/view";

const present = (...xs: (HTMLElement | null)[]) => xs.filter((x): x is HTMLElement => x !== null);

const REFRESH = new Set(["snapshot", "seated", "filled", "aborted", "rematch_offered", "rated", "game_over"]);

export function attachTable(id: string, slot: HTMLElement) {
  const box = h("div", { class: "table-box", id: "table-box" });
  slot.append(box);
  let table: Table | null = null;
  let shown = "";
  const refresh = async () => {
    try {
      table = await players.table(id);
      // Redrawn only when it changed: a button is not replaced under a click.
      const now = JSON.stringify(table);
      if (now === shown) return;
      shown = now;
      render();
    } catch {
      /* the page says what is wrong with the game itself */
    }
  };
  const myToken = () => Object.values(tokens.get(id))[0] as string | undefined;
  const render = () => {
    if (!table || (!table.lobby && table.status !== "aborted")) return box.replaceChildren();
    const t0 = table;
    const names = t0.seats.map((s) =>
      h("li", { class: `seat-${s.state}` }, `${s.colours.join(" ")}: `, s.player ? playerLabel(s.player) : s.state === "ai" ? t("lobby.seat.ai", { level: s.level ?? 0 }) : t(`lobby.seat.${s.state === "taken" ? "guest" : "free"}`)),
    );
    const seated = !!myToken();
    const over = t0.status === "finished" || t0.status === "aborted" || t0.status === "abandoned";
    const iAmOffered = t0.rematch !== null;
    box.replaceChildren(
      ...present(
      t0.status === "waiting" ? h("p", { class: "banner", id: "waiting" }, t("lobby.waiting", { count: t0.free_seats })) : null,
      t0.status === "aborted" ? h("p", { class: "banner", id: "aborted" }, t("lobby.aborted")) : null,
      h("ul", { class: "table-seats", id: "table-seats" }, ...names),
      t0.rated ? h("p", { class: "muted" }, t("lobby.rated")) : null,
      seated && t0.can_abort ? h("button", { id: "abort", onclick: () => void abort() }, t("lobby.abort")) : null,
      seated && over && t0.lobby && me.get() ? h("button", { id: "rematch", class: "primary", onclick: () => void rematch() }, iAmOffered ? t("lobby.rematchAccept") : t("lobby.rematch")) : null,
      ),
    );
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
  new Events(
    id,
    (e: GameEvent | { type: string }) => {
      if (REFRESH.has(e.type)) void refresh();
    },
    () => {},
  );
}
