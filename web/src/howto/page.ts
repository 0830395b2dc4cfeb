// The "How to play" page (`/how-to-play`): every rule in words, each with pictures of real
// positions and placements that the core judged (`GET /api/v1/lessons`), so a picture can
// never disagree with the engine.
import { eitherEngine } from "../engine/fallback";
import { errorText } from "../errors";
import type { Xyz } from "../api";
import type { Letter, StoneInfo } from "../wire";
import { h, toast } from "../ui";
import { languagePicker, t } from "../i18n";
import { lessons } from "./lessons";
import type { LessonExample, LessonScore, Lessons } from "./lessons";
import { picture, PICTURE } from "./scene";
import { startGuidedGame } from "../tutorial/launch";

/** A section: its paragraphs (keys under `howto.SECTION.`) and its pictures. */
interface Section {
  id: string;
  paragraphs: string[];
  figures?: string[];
  scores?: string[];
  stones?: boolean;
}

export const SECTIONS: Section[] = [
  { id: "goal", paragraphs: ["p1", "p2"] },
  { id: "stones", paragraphs: ["p1", "p2"], stones: true },
  { id: "board", paragraphs: ["p1", "p2"] },
  { id: "placing", paragraphs: ["p1", "p2"], figures: ["contact", "on_top"] },
  { id: "support", paragraphs: ["p1"], figures: ["hole"] },
  { id: "contact", paragraphs: ["p1"], figures: ["no_contact"] },
  { id: "height", paragraphs: ["p1"], figures: ["too_high"] },
  { id: "first", paragraphs: ["p1", "p2"], figures: ["first_stone", "first_touching", "first_apart", "first_on_top"] },
  { id: "turns", paragraphs: ["p1", "p2"] },
  { id: "score", paragraphs: ["p1", "p2"], scores: ["start", "middle"] },
  { id: "variants", paragraphs: ["p1", "p2"] },
];

const colourName = (c: string) => t(`common.colour.${c}`);

/** The core's verdict on an example, in words: accepted, or the rule it names. */
/** The engine's verdict under a picture; `plain` leaves out the placement's notation (the
 * guided game shows pictures before any notation was explained). */
export function verdict(e: LessonExample, plain = false): string {
  if (e.legal) return plain ? t("howto.verdict.legal_plain") : t("howto.verdict.legal", { placement: e.placement });
  const detail = { ...e.detail } as Record<string, string | number>;
  if (typeof detail.colour === "string") detail.colour = colourName(detail.colour);
  const head = plain ? t("howto.verdict.refused_plain") : t("howto.verdict.refused", { placement: e.placement });
  return `${head} ${t(`howto.rule.${e.rule}`, detail)}`;
}

export function exampleFigure(e: LessonExample, plain = false): HTMLElement {
  const url = picture({
    id: e.id,
    board: e.board,
    structure: e.structure,
    placement: { colour: e.colour, cubes: e.cubes, legal: e.legal },
    // The limit is drawn where it is the point of the picture.
    limits: e.rule === "too_high",
  });
  return h(
    "figure",
    { class: `lesson ${e.legal ? "legal" : "illegal"}`, "data-lesson": e.id, "data-rule": e.rule ?? "legal" },
    h("img", { src: url, width: PICTURE.width, height: PICTURE.height, alt: t(`howto.example.${e.id}`) }),
    h(
      "figcaption",
      {},
      h("span", {}, t(`howto.example.${e.id}`)),
      h("span", { class: `verdict ${e.legal ? "ok" : "no"}`, "data-verdict": e.legal ? "legal" : e.rule ?? "" }, verdict(e, plain)),
    ),
  );
}

function scoreFigure(s: LessonScore): HTMLElement {
  const url = picture({ id: `score-${s.id}`, board: s.board, structure: s.structure, top: true });
  const rows = s.colours.map((c) =>
    h(
      "tr",
      { "data-colour": c.colour },
      h("th", {}, colourName(c.colour)),
      h("td", {}, String(c.seen)),
      h("td", {}, `− ${c.stones_left}`),
      h("td", { class: "score" }, String(c.score)),
    ),
  );
  return h(
    "figure",
    { class: "lesson scoring", "data-lesson": `score-${s.id}` },
    h("img", { src: url, width: PICTURE.width, height: PICTURE.height, alt: t(`howto.scoreExample.${s.id}`) }),
    h(
      "figcaption",
      {},
      h("span", {}, t(`howto.scoreExample.${s.id}`)),
      h(
        "table",
        { class: "score-table" },
        h("tr", {}, h("th", {}, ""), h("th", {}, t("howto.scoreTable.seen")), h("th", {}, t("howto.scoreTable.left")), h("th", {}, t("howto.scoreTable.score"))),
        ...rows,
      ),
    ),
  );
}

/** The eleven stones of one colour, in two rows, each in its first orientation. */
function stonesFigure(stones: StoneInfo[]): HTMLElement {
  const rows = [stones.slice(0, 5), stones.slice(5)];
  const structure: { colour: Letter; cubes: Xyz[] }[] = [];
  const palette: Letter[] = ["R", "Y", "G", "B"];
  let files = 0;
  rows.forEach((row, r) => {
    let x = 0;
    row.forEach((s, i) => {
      const cells = s.orientations[0];
      structure.push({ colour: palette[(i + r) % 4], cubes: cells.map(([cx, cy, cz]) => [cx + x, cy + r * 3, cz] as Xyz) });
      x += Math.max(...cells.map((c) => c[0])) + 2;
    });
    files = Math.max(files, x - 1);
  });
  const board = { files, ranks: 5, hmax: 2, cells: [] };
  const size = { width: 640, height: 260 };
  const url = picture({ id: "stones", board, structure, size });
  return h(
    "figure",
    { class: "lesson wide", "data-lesson": "stones" },
    h("img", { src: url, width: size.width, height: size.height, alt: t("howto.stones.alt") }),
    h("figcaption", {}, t("howto.stones.legend", { front: rows[0].map((s) => s.code).join(" "), back: rows[1].map((s) => s.code).join(" ") })),
  );
}

export class HowToPage {
  constructor(private root: HTMLElement) {}

  async start() {
    document.title = t("howto.title");
    const body = h("div", { class: "howto-sections" }, h("p", {}, t("howto.loading")));
    const guided = h("button", { class: "primary", id: "howto-guided" }, t("start.newcomer.guided")) as HTMLButtonElement;
    guided.addEventListener("click", async () => {
      guided.disabled = true;
      try {
        location.href = await startGuidedGame();
      } catch (e) {
        guided.disabled = false;
        toast(errorText(e), true);
      }
    });
    this.root.replaceChildren(
      h(
        "div",
        { class: "howto", id: "howto" },
        h(
          "header",
          { class: "hero" },
          h("div", { class: "hero-text" }, h("a", { href: "/", class: "home" }, "Rumis"), h("h1", {}, t("howto.title"))),
          h("nav", { class: "hero-links" }, languagePicker()),
        ),
        h("p", { class: "lead" }, t("howto.lead")),
        h("nav", { class: "toc" }, ...SECTIONS.map((s) => h("a", { href: `#${s.id}` }, t(`howto.${s.id}.title`)))),
        body,
        h("div", { class: "howto-end" }, h("p", {}, t("howto.end")), guided, " ", h("a", { class: "button", href: "/" }, t("howto.back"))),
      ),
    );
    let data: Lessons;
    let stones: StoneInfo[];
    try {
      [data, stones] = await Promise.all([lessons(), eitherEngine.stones()]);
    } catch (e) {
      body.replaceChildren(h("p", {}, t("start.unreachable", { reason: (e as Error).message })));
      return;
    }
    body.replaceChildren(...SECTIONS.map((s) => this.section(s, data, stones)));
    document.body.dataset.lessons = "ready";
    // A link to a section (e.g. from the guided game) lands on it once the pictures are in.
    if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  }

  private section(s: Section, data: Lessons, stones: StoneInfo[]): HTMLElement {
    const figures: HTMLElement[] = [];
    if (s.stones) figures.push(stonesFigure(stones));
    for (const id of s.figures ?? []) {
      const e = data.examples.find((x) => x.id === id);
      if (e) figures.push(exampleFigure(e));
    }
    for (const id of s.scores ?? []) {
      const sc = data.scores.find((x) => x.id === id);
      if (sc) figures.push(scoreFigure(sc));
    }
    return h(
      "section",
      { id: s.id, class: "howto-section" },
      h("h2", {}, t(`howto.${s.id}.title`)),
      ...s.paragraphs.map((p) => h("p", {}, t(`howto.${s.id}.${p}`))),
      figures.length ? h("div", { class: "figures" }, ...figures) : "",
    );
  }
}
