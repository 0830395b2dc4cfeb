// The seat's part of the game page: the clocks, resign and leave, and the your-turn signal,
// drawn from the state shown and the newest state known.
import type { ClockInfo } from "./clockapi";
import type { GameState, Letter } from "../api";
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

  clock(c: ClockInfo) {
    this.clocks.setClock(c);
  }

  /** `shown`: the state on screen; `live`: the newest known (the turn is signalled from it). */
  render(shown: GameState, live: GameState, replaying: boolean, title: string) {
    this.clocks.set(shown);
    this.actions.render(shown, replaying);
    this.signal.setTitle(title);
    const mine = !live.hot_seat && !live.over && live.seat_to_move !== null && this.tokenFor(live.seat_to_move) !== null;
    this.signal.update(mine, t("game.status.your_turn", { colour: colourName(live.to_move as Letter) }));
  }
}
