// The board editor (`/boards/edit`): draw a board's footprint, printed heights, Hmax and red
// frames, see it in 3D for each player count, and download it as the file `rumis boards
// --board-file` reads. Every change is written as that file and judged by the core through
// the server; its refusal is shown next to the cell or field it names. The page composes
// the state (state.ts), the checker (check.ts), and the views and controls (tools, grid,
// fields, preview); they talk through typed events.
import "./editor.css";
import { h, toast } from "../ui";
import { languagePicker, t } from "../i18n";
import { EditorState, blankDraft } from "./state";
import { Checker, builtinFile, builtins, checkText } from "./check";
import type { Verdict } from "./check";
import { draftOf, fileName, writeToml } from "./toml";
import { ToolPicker } from "./tools";
import { GridView } from "./grid";
import { FieldsView } from "./fields";
import { PreviewView } from "./preview";
import { PlayPanel } from "./play";

export class EditorPage {
  private state = new EditorState(blankDraft(t("editor.newName")));
  private checker = new Checker();
  private tools = new ToolPicker();
  private grid = new GridView(this.state, this.tools);
  private fields = new FieldsView(this.state);
  private preview = new PreviewView();
  private play = new PlayPanel();
  private el: Record<string, HTMLElement> = {};

  constructor(private root: HTMLElement) {}

  async start() {
    document.title = t("editor.title");
    const upload = h("input", { type: "file", accept: ".toml,text/plain", id: "ed-upload", class: "ed-hidden" }) as HTMLInputElement;
    upload.addEventListener("change", () => {
      const file = upload.files?.[0];
      upload.value = "";
      if (file) void this.upload(file);
    });
    const pick = h("select", { id: "ed-builtin", "aria-label": t("editor.startFrom") }, h("option", { value: "" }, t("editor.startFrom"))) as HTMLSelectElement;
    pick.addEventListener("change", () => {
      if (pick.value) void this.openBuiltin(pick.value);
      pick.value = "";
    });
    this.root.replaceChildren(
      h(
        "div",
        { class: "editor" },
        h(
          "header",
          { class: "ed-head" },
          h("a", { href: "/", class: "home" }, "Rumis"),
          h("h1", {}, t("editor.title")),
          h("p", { class: "small" }, t("editor.intro")),
          languagePicker(),
        ),
        h(
          "div",
          { class: "ed-bar" },
          h("button", { type: "button", id: "ed-new", onclick: () => this.fresh() }, t("editor.new")),
          pick,
          h("button", { type: "button", id: "ed-upload-button", onclick: () => upload.click() }, t("editor.upload")),
          upload,
          (this.el.download = h("button", { type: "button", class: "primary", id: "ed-download", disabled: true, onclick: () => this.download() }, t("editor.download"))),
          (this.el.play = h("button", { type: "button", id: "ed-play-button", disabled: true, onclick: () => this.openPlay() }, t("editor.play.button"))),
          (this.el.status = h("span", { class: "ed-status", id: "ed-status", role: "status", "aria-live": "polite" })),
        ),
        (this.el.upload = h("div", { class: "ed-fault", id: "fault-upload", role: "alert" })),
        this.play.el,
        h(
          "div",
          { class: "ed-main" },
          h("section", { class: "ed-draw" }, h("h2", {}, t("editor.grid.title")), this.tools.el, this.grid.el, (this.el.gridFault = h("div", { class: "ed-fault", id: "fault-grid", role: "alert" })), h("p", { class: "small" }, t("editor.grid.help"))),
          h("section", { class: "ed-form" }, h("h2", {}, t("editor.fields.title")), this.fields.el),
          this.preview.el,
        ),
      ),
    );
    this.state.on("change", () => this.changed());
    this.checker.on("pending", () => this.pending());
    this.checker.on("verdict", (v) => this.judged(v));
    this.tools.on("tool", (tool) => tool.kind === "frame" && this.preview.setCount(tool.count));
    this.preview.on("count", () => this.grid.showFrame(this.frameRect()));
    this.changed();
    try {
      const boards = await builtins();
      for (const b of boards) pick.append(h("option", { value: b.name }, b.name));
    } catch (e) {
      toast((e as Error).message, true);
    }
  }

  private changed() {
    const written = writeToml(this.state.draft);
    this.checker.request(written, this.state.draft.files, this.state.draft.ranks);
  }

  private pending() {
    (this.el.download as HTMLButtonElement).disabled = true;
    (this.el.play as HTMLButtonElement).disabled = true;
    this.el.status.className = "ed-status";
    this.el.status.textContent = t("editor.checking");
    document.body.dataset.editor = "checking";
  }

  private judged(v: Verdict) {
    if (this.checker.busy) return; // a newer draft is on its way
    const download = this.el.download as HTMLButtonElement;
    (this.el.play as HTMLButtonElement).disabled = !v.ok;
    if (!v.ok) this.play.close();
    if (v.ok) {
      download.disabled = false;
      this.el.status.className = "ed-status good";
      this.el.status.textContent = t("editor.accepted", { count: v.board.columns["4"] });
      this.el.gridFault.textContent = "";
      this.grid.showFault(null, []);
      this.fields.showFault(null, null);
      this.fields.showBoard(v.board);
      this.preview.show(v.board, false);
    } else if (this.blank(v)) {
      // Nothing drawn yet (a new board): where to begin, not an error in red (a newcomer
      // opened the editor to "the footprint is empty" at the grid's first row).
      download.disabled = true;
      this.el.status.className = "ed-status";
      this.el.status.textContent = t("editor.start");
      this.el.gridFault.textContent = "";
      this.grid.showFault(null, []);
      this.fields.showFault(null, null);
      this.preview.show(null, true);
    } else {
      download.disabled = true;
      this.el.status.className = "ed-status bad";
      this.el.status.textContent = v.fault.reason;
      const onGrid = v.target?.part === "grid" ? v.target.row : null;
      // At the grid: its own lines, a frame that names cells, and a line the page has no field for.
      const gridFault = v.target?.part === "grid" || (v.target?.part === "frame" && v.cells.length > 0) || (v.target === null && v.fault.line !== null);
      this.el.gridFault.textContent = gridFault ? t("editor.fault", { line: v.fault.line ?? "?", message: v.fault.message }) : "";
      this.grid.showFault(onGrid, v.cells);
      this.fields.showFault(v.target, v.fault);
      this.preview.show(null, true);
    }
    this.grid.showFrame(this.frameRect());
    document.body.dataset.editor = v.ok ? "ok" : this.blank(v) ? "empty" : "refused";
  }

  /** Refused for its grid when nothing is drawn on it yet: a board not begun. */
  private blank(v: Verdict) {
    return !v.ok && v.target?.part === "grid" && this.state.draft.cells.every((c) => c === null);
  }

  /** The frame of the player count shown, as the core last read it, for the grid. */
  private frameRect() {
    const f = this.preview.frame();
    return f ? { files: f.files, ranks: f.ranks } : null;
  }

  private fresh() {
    this.el.upload.textContent = "";
    this.state.load(blankDraft(t("editor.newName")));
  }

  /** A file read by the core: its board becomes the draft; a refused file changes nothing. */
  private async load(text: string, file: string) {
    const answer = await checkText(text, file);
    if ("fault" in answer) {
      this.el.upload.textContent = t("editor.uploadRefused", { reason: answer.fault.reason });
      return;
    }
    this.el.upload.textContent = "";
    this.state.load(draftOf(answer.board));
  }

  private async upload(file: File) {
    if (file.size > 16 * 1024) {
      this.el.upload.textContent = t("editor.tooLarge", { name: file.name });
      return;
    }
    await this.load(await file.text(), file.name);
  }

  private async openBuiltin(name: string) {
    try {
      await this.load(await builtinFile(name), fileName(name));
    } catch (e) {
      toast((e as Error).message, true);
    }
  }

  /** A game on the file the core accepted, exactly as it was checked. */
  private openPlay() {
    const v = this.checker.verdict;
    if (!v?.ok || this.checker.busy) return;
    this.play.open(v.written.text);
  }

  /** The file the core accepted, exactly as it was checked. */
  private download() {
    const v = this.checker.verdict;
    if (!v?.ok || this.checker.busy) return;
    const url = URL.createObjectURL(new Blob([v.written.text], { type: "application/toml" }));
    const a = h("a", { href: url, download: fileName(v.board.name) });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
