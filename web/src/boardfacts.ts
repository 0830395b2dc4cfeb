// What is known about a board, for its card on the start page: where its shape comes from
// (provenance) and the sourced facts it was fitted to, each with what the tests check of it
// (`[[evidence]]` in the board files, given by `GET /api/v1/boards`).
import type { BoardInfo } from "./wire";
import { t } from "./i18n";
import { h } from "./ui";

/** The board's provenance line; its source sentence as the tooltip. */
export function provenanceLine(b: BoardInfo) {
  const text = b.provenance === "printed-rules" ? t("start.provenance.printed") : b.provenance ? t("start.provenance.reconstruction") : "";
  return h("span", { class: "provenance", title: b.source ?? "" }, text);
}

/** The evidence, folded: a count to open, then each fact with its source and checks. */
export function evidenceBox(b: BoardInfo) {
  const facts = b.evidence ?? [];
  if (!facts.length) return h("p", { class: "evidence small", "data-evidence": "0" }, t("start.evidence.none"));
  return h(
    "details",
    { class: "evidence", "data-evidence": String(facts.length) },
    h("summary", {}, t("start.evidence.title", { count: facts.length })),
    h(
      "ul",
      {},
      ...facts.map((e) =>
        h(
          "li",
          {},
          h("span", { class: "fact" }, e.fact),
          h("span", { class: "source" }, t("start.evidence.source", { source: e.source })),
          e.constraints.length ? h("span", { class: "checks" }, t("start.evidence.checks", { checks: e.constraints.map((c) => c.text).join("; ") })) : "",
        ),
      ),
    ),
  );
}
