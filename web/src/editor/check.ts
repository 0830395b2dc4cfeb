// The core's verdict on the board being edited, through the server
// (`POST /api/v1/boards/check`): the file written from the draft is sent after a short
// pause in the changes, and the answer to the latest one is announced. Also the small
// fetches the editor needs (the built-in boards and their files). Without a server (a
// static copy of the app, or offline) the engine in this browser answers each of them in
// the server's shapes: the same core reads the file.
import { ApiError } from "../api";
import { engine } from "../engine/client";
import { serverOr } from "../engine/fallback";
import type { EngineAnswers, EngineRequest } from "../engine/protocol";
import { Emitter } from "./state";
import type { Target, Written } from "./toml";
import type { BoardChecked, Boards, CheckedBoard, ErrorBody } from "../wire";

/** The core's refusal of a file: its words, and where it is. */
export interface Fault {
  code: string;
  /** "file:line: message", or the server's sentence when it is no board error. */
  reason: string;
  line: number | null;
  message: string;
}

export type Verdict =
  | { ok: true; written: Written; board: CheckedBoard }
  | { ok: false; written: Written; fault: Fault; target: Target | null; cells: [number, number][] };

export interface CheckerEvents {
  /** A check was asked for and has not been answered yet. */
  pending: null;
  verdict: Verdict;
}

class Refused extends Error {
  constructor(public fault: Fault) {
    super(fault.reason);
  }
}

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "network", "the server cannot be reached");
  }
  if (!res.ok) {
    const e = (await res.json().catch(() => ({}))) as Partial<ErrorBody>;
    // Not the API's error body (a static file server's page): there is no server here.
    if (!e.error) throw new ApiError(res.status, "http", `${res.status} ${res.statusText}`);
    const reason = e.reason ?? `${res.status} ${res.statusText}`;
    throw new Refused({ code: e.error, reason, line: e.line ?? null, message: e.message ?? reason });
  }
  return res;
}

/** The engine's refusal as the server's: the same codes, line and message. */
async function local<R extends EngineRequest>(request: R): Promise<EngineAnswers[R["cmd"]]> {
  try {
    return await engine.call(request);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const line = typeof e.detail.line === "number" ? e.detail.line : null;
    const message = typeof e.detail.message === "string" ? e.detail.message : e.message;
    throw new Refused({ code: e.code, reason: e.message, line, message });
  }
}

/** The core's reading of a board file: the board, or the fault with its line. */
export async function checkText(toml: string, file?: string): Promise<{ board: CheckedBoard } | { fault: Fault }> {
  try {
    const body = file ? { toml, file } : { toml };
    return await serverOr(
      async () => (await (await call("POST", "/boards/check", body)).json()) as BoardChecked,
      () => local({ cmd: "check_board", ...body }),
    );
  } catch (e) {
    if (e instanceof Refused) return { fault: e.fault };
    throw e;
  }
}

export const builtins = async () =>
  (
    await serverOr(
      async () => (await (await call("GET", "/boards")).json()) as Boards,
      () => local({ cmd: "boards" }),
    )
  ).boards;

export const builtinFile = (name: string) =>
  serverOr(
    async () => (await call("GET", `/boards/${encodeURIComponent(name)}/toml`)).text(),
    async () => (await local({ cmd: "board_toml", name })).toml,
  );

/** Cells a message names ("frame a1:c2 …", "… at b1 …") that lie on a grid of this size. */
export function namedCells(message: string, files: number, ranks: number): [number, number][] {
  const out: [number, number][] = [];
  for (const m of message.matchAll(/\b([a-z])([1-9]\d{0,2})\b/g)) {
    const x = m[1].charCodeAt(0) - 97;
    const y = Number(m[2]) - 1;
    if (x < files && y < ranks && !out.some(([a, b]) => a === x && b === y)) out.push([x, y]);
  }
  return out;
}

/** Asks the core about the latest file, a pause after the last change; older answers are dropped. */
export class Checker extends Emitter<CheckerEvents> {
  private timer = 0;
  private asked = 0;
  private inFlight = 0;
  private latest: Verdict | null = null;

  constructor(private delayMs = 250) {
    super();
  }

  get verdict() {
    return this.latest;
  }

  /** Whether a check is waiting or under way (the verdict is not the draft's yet). */
  get busy() {
    return this.timer !== 0 || this.inFlight > 0;
  }

  /** Check `written` (the draft's file) soon; `files` × `ranks` is its grid. */
  request(written: Written, files: number, ranks: number) {
    clearTimeout(this.timer);
    this.emit("pending", null);
    this.timer = window.setTimeout(() => {
      this.timer = 0;
      void this.run(written, files, ranks);
    }, this.delayMs);
  }

  private async run(written: Written, files: number, ranks: number) {
    const n = ++this.asked;
    this.inFlight++;
    let answer: Awaited<ReturnType<typeof checkText>>;
    try {
      answer = await checkText(written.text);
    } finally {
      this.inFlight--;
    }
    if (n !== this.asked) return;
    let verdict: Verdict;
    if ("board" in answer) verdict = { ok: true, written, board: answer.board };
    else {
      const { fault } = answer;
      const target = fault.line ? (written.lines[fault.line - 1] ?? null) : null;
      verdict = { ok: false, written, fault, target, cells: namedCells(fault.message, files, ranks) };
    }
    this.latest = verdict;
    this.emit("verdict", verdict);
  }
}
