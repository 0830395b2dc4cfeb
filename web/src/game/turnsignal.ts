// "Your turn": when a seat this browser holds comes to move, the tab's title and icon say so
// (until the turn is played), an optional chime sounds (off by default), and, with the page
// in the background, a notification appears (permission is asked only when the player
// clicks the toggle, never on its own).
import { t } from "../i18n";
import { h, prefs } from "../ui";

/** The tab's icon while it is your turn: the usual stones with a bright dot. */
const TURN_ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect x='1' y='7' width='7' height='7' fill='%23d33'/%3E%3Crect x='8' y='7' width='7' height='7' fill='%23e6b800'/%3E%3Ccircle cx='11' cy='4.5' r='4.5' fill='%2300c853'/%3E%3C/svg%3E";

let audio: AudioContext | null = null;
/** Two rising notes: unlike the knock of a stone set down. */
function chime() {
  try {
    audio ??= new AudioContext();
    [660, 880].forEach((f, i) => {
      const o = audio!.createOscillator();
      const g = audio!.createGain();
      const at = audio!.currentTime + i * 0.14;
      o.frequency.value = f;
      g.gain.setValueAtTime(0.2, at);
      g.gain.exponentialRampToValueAtTime(0.001, at + 0.25);
      o.connect(g).connect(audio!.destination);
      o.start(at);
      o.stop(at + 0.26);
    });
  } catch {
    // No sound available: nothing to do.
  }
}

export class TurnSignal {
  readonly el = h("div", { class: "turn-signal small", id: "turn-signal" });
  private mine = false;
  private baseTitle = document.title;
  private baseIcon: string | null = null;
  private note: Notification | null = null;

  constructor() {
    this.renderToggles();
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.note?.close();
    });
  }

  /** The page's own title (the game's name), shown when it is not your turn. */
  setTitle(title: string) {
    this.baseTitle = title;
    this.apply();
  }

  /** Whether a seat this browser holds is to move now; `what` names the turn ("Red to move"). */
  update(mine: boolean, what: string) {
    const began = mine && !this.mine;
    this.mine = mine;
    this.apply();
    if (!began) {
      if (!mine) this.note?.close();
      return;
    }
    if (prefs.get("turn_sound", false)) chime();
    if (document.hidden && prefs.get("turn_notify", false) && "Notification" in window && Notification.permission === "granted") {
      try {
        this.note = new Notification(t("game.yourturn.notice_title"), { body: what, tag: "rumis-turn" });
      } catch {
        // Some browsers allow notifications only from a service worker: the title says it.
      }
    }
  }

  private apply() {
    document.title = this.mine ? `● ${t("game.yourturn.title")} · ${this.baseTitle}` : this.baseTitle;
    document.body.dataset.yourTurn = String(this.mine);
    const link = document.querySelector<HTMLLinkElement>("link[rel~='icon']");
    if (!link) return;
    this.baseIcon ??= link.href;
    const want = this.mine ? TURN_ICON : this.baseIcon;
    if (link.href !== want) link.href = want;
  }

  private renderToggles() {
    const sound = h("input", {
      type: "checkbox",
      id: "turn-sound",
      checked: prefs.get("turn_sound", false),
      onchange: (e: Event) => prefs.set("turn_sound", (e.target as HTMLInputElement).checked),
    });
    const supported = "Notification" in window;
    const notify = h("input", {
      type: "checkbox",
      id: "turn-notify",
      disabled: !supported || Notification.permission === "denied",
      checked: supported && Notification.permission === "granted" && prefs.get("turn_notify", false),
      onchange: async (e: Event) => {
        const box = e.target as HTMLInputElement;
        // Asked here, after the player's click, and only then.
        if (box.checked && Notification.permission !== "granted") {
          const answer = await Notification.requestPermission();
          box.checked = answer === "granted";
          box.disabled = answer === "denied";
        }
        prefs.set("turn_notify", box.checked);
      },
    });
    this.el.replaceChildren(
      h("span", {}, t("game.yourturn.signals")),
      " ",
      h("label", { title: t("game.yourturn.sound_title") }, sound, " ", t("game.yourturn.sound")),
      " ",
      h("label", { title: t("game.yourturn.notify_title") }, notify, " ", t("game.yourturn.notify")),
    );
  }
}
