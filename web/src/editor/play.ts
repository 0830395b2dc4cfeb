// "Play on this board": a game on the board being edited, exactly the file the core
// accepted (sent inline as `board_file`), against the AI or hot-seat, under the house rules
// chosen: on the server, or in this browser when there is none (a static copy of the app,
// or offline). Either reads the file again with the core; its refusal is shown.
import { api, tokens } from "../api";
import { serverOr } from "../engine/fallback";
import { localBackend } from "../engine/local";
import { errorText } from "../errors";
import { HouseRules } from "../houserules";
import { t } from "../i18n";
import { h } from "../ui";

export class PlayPanel {
  readonly el: HTMLElement;
  private players = 2;
  /** "ai:N" (the others are the AI at level N) or "hot" (friends on this device). */
  private against = "ai:1";
  private rules = new HouseRules("play-stuck");
  private fault: HTMLElement;
  private text = "";

  constructor() {
    this.fault = h("div", { class: "ed-fault", id: "play-fault", role: "alert" });
    this.el = h("section", { class: "ed-play", id: "ed-play", hidden: true });
  }

  /** Opens the panel for this board file (the one the core last accepted). */
  open(text: string) {
    this.text = text;
    this.fault.textContent = "";
    this.render();
    this.el.hidden = false;
    (this.el.querySelector("#play-start") as HTMLButtonElement | null)?.focus();
  }

  close() {
    this.el.hidden = true;
  }

  private render() {
    const players = h(
      "select",
      { id: "play-players", "aria-label": t("editor.play.players"), onchange: (e: Event) => (this.players = Number((e.target as HTMLSelectElement).value)) },
      ...[2, 3, 4].map((n) => h("option", { value: String(n), selected: n === this.players }, String(n))),
    );
    const against = h(
      "select",
      { id: "play-against", "aria-label": t("editor.play.against"), onchange: (e: Event) => (this.against = (e.target as HTMLSelectElement).value) },
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((l) => h("option", { value: `ai:${l}`, selected: this.against === `ai:${l}` }, t("editor.play.ai", { level: l }))),
      h("option", { value: "hot", selected: this.against === "hot" }, t("editor.play.hotSeat")),
    );
    this.el.replaceChildren(
      h("h2", {}, t("editor.play.title")),
      h("label", { class: "row" }, h("span", { class: "label" }, t("editor.play.players")), players),
      h("label", { class: "row" }, h("span", { class: "label" }, t("editor.play.against")), against),
      this.rules.el,
      h(
        "div",
        { class: "row" },
        h("button", { type: "button", class: "primary", id: "play-start", onclick: () => void this.start() }, t("editor.play.start")),
        h("button", { type: "button", id: "play-cancel", onclick: () => this.close() }, t("editor.play.cancel")),
      ),
      this.fault,
    );
  }

  private async start() {
    const hot = this.against === "hot";
    const level = hot ? 0 : Number(this.against.slice(3));
    const seats = Array.from({ length: this.players }, (_, i) => (hot || i === 0 ? { kind: "human" } : { kind: "ai", level }));
    const stuck = this.rules.stuckRule;
    try {
      location.href = await serverOr(
        async () => {
          const created = await api.create({
            board_file: this.text,
            players: this.players,
            hot_seat: hot,
            seats,
            ...(stuck === "out" ? {} : { stuck_rule: stuck }),
          });
          for (const s of created.seats) if (s.token) tokens.add(created.id, s.seat, s.token);
          return `/game/${created.id}`;
        },
        () =>
          localBackend.create({
            board_file: this.text,
            players: this.players,
            variant: "standard",
            seats: seats as { kind: "human" | "ai"; level?: number }[],
            hot_seat: hot,
            stuck_rule: stuck,
          }),
      );
    } catch (e) {
      this.fault.textContent = t("editor.play.refused", { reason: errorText(e) });
    }
  }
}
