// The game page's keys, listed where anyone finds them: a visible "Keys" button beside the
// help link opens a dialog with every shortcut (also opened by ? or K). A modal dialog keeps
// the focus inside while open, and Esc or its Close button gives it back to the button.
import { t } from "../i18n";
import { h } from "../ui";

export class KeysControl {
  readonly button: HTMLButtonElement;
  readonly dialog: HTMLDialogElement;

  constructor() {
    // The translated list is one line, its items apart by " · ": one item each here.
    const items = [...t("game.keys.text").split(" · "), t("game.keys.this_list")].map((text) => h("li", {}, text));
    const close = h("button", { type: "button", id: "keys-close", onclick: () => this.dialog.close() }, t("game.keys.close"));
    this.dialog = h(
      "dialog",
      { class: "keys-dialog", id: "keys-dialog", "aria-labelledby": "keys-heading" },
      h("h2", { id: "keys-heading" }, t("game.keys.heading")),
      h("ul", { class: "keys-list" }, ...items),
      close,
    );
    this.button = h(
      "button",
      { type: "button", class: "keys-button", id: "keys-button", "aria-haspopup": "dialog", title: t("game.keys.button_title"), onclick: () => this.open() },
      t("game.keys.title"),
    );
    this.dialog.addEventListener("close", () => this.button.focus());
  }

  open() {
    if (!this.dialog.open) this.dialog.showModal();
  }

  /** ? or K: true when the key opened the list. */
  key(k: string): boolean {
    if (k !== "?" && k !== "k" && k !== "K") return false;
    this.open();
    return true;
  }
}
