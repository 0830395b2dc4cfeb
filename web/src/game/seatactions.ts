// Resign and leave, for a seat this browser holds: each asks to be confirmed in place (a
// second click on "Yes"), then tells the server, which decides (resign: the seat's colours
// are out and the others play on; leave: the AI plays the seat from now on).
import type { GameState } from "../wire";
import { t } from "../i18n";
import { h, toast } from "../ui";
import { clockApi } from "./clockapi";
import { errorText } from "./errors";
import { noMoreMoves } from "./ended";

type Act = "resign" | "leave";

export class SeatActions {
  readonly el = h("div", { class: "seat-actions", id: "seat-actions", hidden: true });
  private asking: Act | null = null;
  private state: GameState | null = null;

  constructor(
    private id: string,
    private tokenFor: (seat: number) => string | null,
    /** After the server's answer: read the game again. */
    private done: () => void,
  ) {}

  /** The seat the buttons act for: in a hot-seat game the one to move, else the one held that still plays. */
  private seat(s: GameState): number | null {
    if (s.hot_seat) return s.seat_to_move !== null && this.tokenFor(s.seat_to_move) ? s.seat_to_move : null;
    const held = s.seats.find(
      (x) => x.kind === "human" && this.tokenFor(x.seat) && x.colours.some((c) => !s.colours.find((k) => k.colour === c)?.out),
    );
    return held?.seat ?? null;
  }

  render(s: GameState, replaying: boolean) {
    this.state = s;
    const seat = noMoreMoves(s) || replaying ? null : this.seat(s);
    this.el.hidden = seat === null;
    if (seat === null) {
      this.asking = null;
      this.el.replaceChildren();
      return;
    }
    if (this.asking) {
      const act = this.asking;
      this.el.replaceChildren(
        h("span", { class: "confirm-text" }, t(`game.seat.${act}_confirm`)),
        " ",
        h("button", { id: `${act}-yes`, class: "danger", onclick: () => void this.act(act, seat) }, t(`game.seat.${act}_yes`)),
        " ",
        h("button", { id: `${act}-no`, onclick: () => this.ask(null) }, t("game.seat.cancel")),
      );
      return;
    }
    this.el.replaceChildren(
      h("button", { id: "resign", title: t("game.seat.resign_title"), onclick: () => this.ask("resign") }, t("game.seat.resign")),
      " ",
      h("button", { id: "leave", title: t("game.seat.leave_title"), onclick: () => this.ask("leave") }, t("game.seat.leave")),
    );
  }

  private ask(act: Act | null) {
    this.asking = act;
    if (this.state) this.render(this.state, false);
  }

  private async act(act: Act, seat: number) {
    const token = this.tokenFor(seat);
    this.asking = null;
    if (!token) return;
    try {
      if (act === "resign") await clockApi.resign(this.id, token, seat);
      else await clockApi.leave(this.id, token, seat);
      toast(t(`game.seat.${act}_done`));
    } catch (e) {
      toast(t("game.seat.failed", { reason: errorText(e) }), true);
    }
    this.done();
  }
}
