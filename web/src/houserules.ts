// The house-rules choice of a new game (start page, the editor's "Play on this board"): what
// happens to a colour that cannot place (rules §6), the rulebook's "out" by default, with a
// short explanation. The rule itself is the core's; this only says which one to use.
import { t } from "./i18n";
import { h } from "./ui";

export type StuckRule = "out" | "pass";

export class HouseRules {
  readonly el: HTMLElement;
  private rule: StuckRule = "out";

  constructor(private prefix = "stuck") {
    this.el = h("details", { class: "house-rules", id: `${prefix}-rules` });
    this.render();
  }

  get stuckRule(): StuckRule {
    return this.rule;
  }

  private render() {
    const open = (this.el as HTMLDetailsElement).open || this.rule !== "out";
    const option = (rule: StuckRule) =>
      h(
        "label",
        { class: `pill ${this.rule === rule ? "on" : ""}` },
        h("input", {
          type: "radio",
          name: `${this.prefix}-rule`,
          value: rule,
          checked: this.rule === rule,
          onchange: () => {
            this.rule = rule;
            this.render();
          },
        }),
        t(`start.houseRules.${rule}`),
      );
    this.el.replaceChildren(
      h("summary", {}, t("start.houseRules.title")),
      h("div", { class: "row" }, h("span", { class: "label" }, t("start.houseRules.stuck")), option("out"), option("pass")),
      h("p", { class: "small" }, t("start.houseRules.explain")),
    );
    (this.el as HTMLDetailsElement).open = open;
  }
}
