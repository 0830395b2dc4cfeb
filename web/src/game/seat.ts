// The seat's part of the game page: the clocks, resign and leave, and the your-turn signal,
// drawn from the state shown and the newest state known.
import { tokens } from "../api";
import type { ClockInfo, GameState } from "../wire";
import { t } from "../i18n";
import { colourName } from "../ui";
import { Clocks } from "./clocks";
import { SeatActions } from "./seatactions";
import { TurnSignal } from "./turnsignal";

export class SeatPanel {
  private clocks: Clocks;
  private actions: SeatActions;
  private signal = new TurnSignal();

  constructor(
    id: string,
    private tokenFor: (seat: number) => string | null,
    reload: () => void,
  ) {
    this.clocks = new Clocks(id);
    this.actions = new SeatActions(id, tokenFor, reload);
  }

  /** The clocks go under the players; the buttons and the signal's toggles with the actions. */
  get clocksEl() {
    return this.clocks.el;
  }
  get actionsEl() {
    return [this.actions.el, this.signal.el];
  }

  /** Each seat's time left now (null: the game has no clock). */
  timeLeft() {
    return this.clocks.leftNow();
  }

  clock(c: ClockInfo) {
    this.clocks.setClock(c);
  }

  /** `shown`: the state on screen; `live`: the newest known (the turn is signalled from it). */
  render(shown: GameState, live: GameState, replaying: boolean, title: string) {
    this.clocks.set(shown);
    this.actions.render(shown, replaying);
    this.signal.setTitle(title);
    const mine = !live.hot_seat && !live.over && live.seat_to_move !== null && this.tokenFor(live.seat_to_move) !== null;
    // Named only when a colour is to move: at the end there is none (and no key for "null").
    const text = live.to_move ? t("game.status.your_turn", { colour: colourName(live.to_move) }) : "";
    this.signal.update(mine, text);
  }
}

/** A seat link carries `#seat=N&token=T`: keep the token here and take it out of the address bar. */
export function takeTokenFromLink(id: string) {
  const q = new URLSearchParams(location.hash.slice(1));
  const token = q.get("token");
  if (token && /^[0-9a-f]{32}$/.test(token)) {
    for (const seat of (q.get("seat") ?? "0").split(",")) tokens.add(id, Number(seat) || 0, token);
    history.replaceState(null, "", location.pathname);
  }
}
