// The WebAssembly engine against the native core: random games on every built-in board,
// variant and player count (and the house stuck rule), and at every position the module's
// legal placements equal those of the native `rumis engine` (docs/engine-protocol.md),
// whose generator runs the machine's SIMD path, in the app's three modules: the scalar one,
// the one compiled with WebAssembly SIMD (its generator's simd128 path; Node.js has SIMD)
// and the one with relaxed SIMD too (Node.js 20 has it behind a flag, turned on below).
// The games end with the same record on all sides.
import { test, beforeAll } from "vitest";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { buildWasmModules } from "../scripts/wasm.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");

// The app's own modules, compiled by Vitest as the bundle's are, imported by the tests.
const sources = { "engine/module.ts": () => import("../src/engine/module.ts"), "engine/simd.ts": () => import("../src/engine/simd.ts") };
const loadTs = (rel) => sources[rel]();

function nativeBinary() {
  const bin = process.env.RUMIS_BIN ?? join(root, "target", "debug", "rumis");
  if (!process.env.RUMIS_BIN) execFileSync("cargo", ["build", "--quiet", "-p", "rumis-cli"], { cwd: root, stdio: "inherit" });
  assert.ok(existsSync(bin), `no native rumis at ${bin}`);
  return bin;
}

/** `rumis engine` as a function: a command in, its answer out (framing as the protocol says). */
function nativeEngine(bin) {
  const child = spawn(bin, ["engine"], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  let answer = [];
  lines.on("line", (line) => {
    if (line === "") {
      const text = answer.map((l, i) => (i > 0 && l.startsWith(".") ? l.slice(1) : l)).join("\n");
      answer = [];
      waiting.shift()?.(text);
    } else answer.push(line);
  });
  return {
    async send(command) {
      const reply = new Promise((resolve) => waiting.push(resolve));
      child.stdin.write(`${command}\n`);
      const text = await reply;
      if (text.startsWith("?")) throw new Error(`native engine refused '${command}': ${text}`);
      return text.replace(/^= ?/, "");
    },
    close: () => child.stdin.end(),
  };
}

/** A small seeded generator (mulberry32), so a failing game can be replayed. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Relaxed SIMD: on by default from Node.js 22 (V8 11.4, as in Chromium 114); Node.js 20
// validates it once its V8 flag is set, which it may be at run time, before any module
// compiles. The differential test runs the relaxed module, so where neither works it fails
// and says why rather than leave the module the browsers load untested.
const relaxedProbe = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, 0x03, 0x02, 0x01, 0x00,
  0x0a, 0x0f, 0x01, 0x0d, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x41, 0x00, 0xfd, 0x0f, 0xfd, 0x80, 0x02, 0x0b,
]);
if (!WebAssembly.validate(relaxedProbe)) setFlagsFromString("--experimental-wasm-relaxed-simd");

// The modules and the native binary, built (or found up to date) before the tests, whose
// time limits are then the comparisons' alone.
let wasmBytes;
let simdBytes;
let relaxedBytes;
let bin;
beforeAll(
  async () => {
    const built = await buildWasmModules();
    wasmBytes = readFileSync(built.scalar);
    simdBytes = readFileSync(built.simd);
    relaxedBytes = readFileSync(built.relaxed);
    assert.ok(
      WebAssembly.validate(relaxedBytes),
      `this Node.js (${process.version}) cannot run relaxed SIMD, so the relaxed module cannot be compared here: use Node.js 20 or later`,
    );
    bin = nativeBinary();
  },
  1_800_000,
);

const moves = (record) => record.split("\n\n").slice(1).join("\n").trim();

test("the WebAssembly engine's legal placements equal the native core's at every position", { timeout: 180_000 }, async () => {
  const { instantiate } = await loadTs("engine/module.ts");
  const wasm = await instantiate(wasmBytes);
  const simd = await instantiate(simdBytes);
  const relaxed = await instantiate(relaxedBytes);
  // Each module runs the generator path it is meant to (so the comparison covers all three).
  assert.deepEqual(wasm.call({ cmd: "engine" }), { code_path: "scalar", relaxed_simd: false });
  assert.deepEqual(simd.call({ cmd: "engine" }), { code_path: "simd128", relaxed_simd: false });
  assert.deepEqual(relaxed.call({ cmd: "engine" }), { code_path: "simd128", relaxed_simd: true });
  const native = nativeEngine(bin);
  const boards = wasm.call({ cmd: "boards" }).boards.map((b) => b.name.toLowerCase());
  assert.deepEqual(boards, ["chullpa", "pirka", "tambo", "pisac", "coricancha", "cucho"]);
  const setups = [
    { players: 2, variant: "standard" },
    { players: 3, variant: "standard" },
    { players: 4, variant: "standard" },
    { players: 2, variant: "two-player-four-colors" },
    { players: 2, variant: "ruinas" },
    { players: 3, variant: "ruinas" },
    { players: 3, variant: "standard", stuck_rule: "pass" },
  ];
  let positions = 0;
  let seed = 1;
  try {
    for (const board of boards) {
      for (const setup of setups) {
        seed++;
        const where = `${board} ${setup.players} ${setup.variant}${setup.stuck_rule ? " pass" : ""} seed ${seed}`;
        const ruinas = setup.variant === "ruinas";
        const made = wasm.call({ cmd: "new", board, ...setup, ...(ruinas ? { ruins_seed: seed } : {}) });
        assert.equal(made.error, undefined, `${where}: ${made.reason}`);
        let record = made.record;
        await native.send(
          `new_game ${board} ${setup.players} ${setup.variant}${ruinas ? ` ruins_seed=${seed}` : ""}${setup.stuck_rule ? ` stuck_rule=${setup.stuck_rule}` : ""}`,
        );
        const pick = rng(seed);
        for (let ply = 0; ; ply++) {
          const legal = wasm.call({ cmd: "legal", record }).legal;
          const theirs = await native.send("legal_moves");
          assert.deepEqual(legal, theirs === "" ? [] : theirs.split(" "), `${where}, after ${ply} moves`);
          assert.deepEqual(simd.call({ cmd: "legal", record }).legal, legal, `${where}, after ${ply} moves (SIMD module)`);
          assert.deepEqual(relaxed.call({ cmd: "legal", record }).legal, legal, `${where}, after ${ply} moves (relaxed-SIMD module)`);
          positions++;
          if (legal.length === 0) break;
          const placement = legal[Math.floor(pick() * legal.length)];
          const played = wasm.call({ cmd: "play", record, placement });
          assert.equal(played.error, undefined, `${where}: ${played.reason}`);
          assert.equal(await native.send(`play ${placement}`), played.placement, where);
          record = played.record;
        }
        const theirs = await native.send("record");
        assert.equal(moves(record), moves(theirs), `${where}: the same game`);
        assert.equal(record.match(/\[Result "(.*)"\]/)?.[1], theirs.match(/\[Result "(.*)"\]/)?.[1], `${where}: the same scores`);
        if (ruinas) assert.equal(record.match(/\[Setup "(.*)"\]/)[1], theirs.match(/\[Setup "(.*)"\]/)[1], `${where}: the same ruins`);
      }
    }
  } finally {
    native.close();
  }
  // 6 boards × 7 setups, each game 15-44 moves and its final position.
  assert.ok(positions > 6 * 7 * 15, `only ${positions} positions compared`);
  console.log(`compared ${positions} positions`);
});

// No built-in board has 16 columns or fewer (the SIMD kernel's one-table path, which only a
// board file of one's own reaches): a board file made for the test, random games, the SIMD
// modules against the scalar one at every position (the scalar path is the one compared with
// the native core above), and perft against the native `rumis perft --board-file`.
// Small boards: one table of 16 columns in the SIMD kernels; the tall one stacks columns
// past level 12, where the SIMD path's packing of a column's contact window changes its way
// (`pack` in the core's `mod wasm`).
const SMALL_BOARDS = [
  { name: "Small", file: 'name = "Small"\nprovenance = "reconstruction"\nhmax = { 2 = 4, 3 = 4, 4 = 4 }\ngrid = """\n1221\n2##2\n2##2\n1221\n"""\n' },
  { name: "Tall", file: 'name = "Tall"\nprovenance = "reconstruction"\nhmax = { 2 = 15, 3 = 15, 4 = 15 }\ngrid = """\n##\n##\n"""\n' },
];

for (const { name, file: boardFile } of SMALL_BOARDS) test(`a board file of at most 16 columns (${name}): the SIMD modules' placements equal the scalar module's, and perft the native core's`, { timeout: 180_000 }, async () => {
  const { instantiate } = await loadTs("engine/module.ts");
  const wasm = await instantiate(wasmBytes);
  const simd = await instantiate(simdBytes);
  const relaxed = await instantiate(relaxedBytes);
  const setups = [
    { players: 2, variant: "standard" },
    { players: 3, variant: "standard" },
    { players: 4, variant: "standard" },
    { players: 2, variant: "two-player-four-colors" },
    { players: 3, variant: "standard", stuck_rule: "pass" },
  ];
  let positions = 0;
  for (const [i, setup] of setups.entries()) {
    for (let game = 0; game < 3; game++) {
      const seed = 100 + 10 * i + game;
      const where = `${name} ${setup.players} ${setup.variant}${setup.stuck_rule ? " pass" : ""} seed ${seed}`;
      const made = wasm.call({ cmd: "new", board_file: boardFile, ...setup });
      assert.equal(made.error, undefined, `${where}: ${made.reason}`);
      let record = made.record;
      const pick = rng(seed);
      for (let ply = 0; ; ply++) {
        const legal = wasm.call({ cmd: "legal", record }).legal;
        assert.deepEqual(simd.call({ cmd: "legal", record }).legal, legal, `${where}, after ${ply} moves`);
        assert.deepEqual(relaxed.call({ cmd: "legal", record }).legal, legal, `${where}, after ${ply} moves (relaxed SIMD)`);
        positions++;
        if (legal.length === 0) break;
        const played = wasm.call({ cmd: "play", record, placement: legal[Math.floor(pick() * legal.length)] });
        assert.equal(played.error, undefined, `${where}: ${played.reason}`);
        record = played.record;
      }
    }
  }
  assert.ok(positions > 5 * 3 * 8, `only ${positions} positions compared`);
  const dir = mkdtempSync(join(tmpdir(), "rumis-board-"));
  const path = join(dir, `${name}.toml`);
  writeFileSync(path, boardFile);
  for (const players of [2, 4]) {
    const theirs = Number(execFileSync(bin, ["perft", "--depth", "2", "--board-file", path, "--players", String(players)], { encoding: "utf8" }).trim().split(/\s+/).pop());
    for (const module of [wasm, simd, relaxed]) {
      const { record } = module.call({ cmd: "new", board_file: boardFile, players });
      assert.equal(module.call({ cmd: "perft", record, depth: 2 }).leaves, theirs, `${name} ${players} perft 2`);
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

test("perft in the three modules equals the native `rumis perft` (rules §8)", { timeout: 180_000 }, async () => {
  const { instantiate } = await loadTs("engine/module.ts");
  const cases = [["chullpa", 4, 2], ["coricancha", 4, 2], ["cucho", 3, 2], ["pisac", 2, 3]];
  const theirs = cases.map(([board, players, depth]) =>
    Number(execFileSync(bin, ["perft", "--depth", String(depth), "--board", board, "--players", String(players)], { encoding: "utf8" }).trim().split(/\s+/).pop()),
  );
  for (const bytes of [wasmBytes, simdBytes, relaxedBytes]) {
    const wasm = await instantiate(bytes);
    for (const [i, [board, players, depth]] of cases.entries()) {
      const { record } = wasm.call({ cmd: "new", board, players });
      assert.equal(wasm.call({ cmd: "perft", record, depth }).leaves, theirs[i], `${board} ${players} perft ${depth}`);
    }
  }
  // rules §8's pinned figure, so the comparison cannot pass on two wrong counts.
  assert.equal(theirs[0], 165662);
});

test("a refused placement carries the core's sentence, and changes nothing", { timeout: 180_000 }, async () => {
  const wasm = await (await loadTs("engine/module.ts")).instantiate(wasmBytes);
  const { record } = wasm.call({ cmd: "new", board: "chullpa", players: 2 });
  const a = wasm.call({ cmd: "play", record, placement: "L4@a1,a2,a3,b1" });
  const b = wasm.call({ cmd: "play", record: a.record, placement: "L4@a1,a2,a3,b1" });
  assert.equal(b.error, "illegal_move");
  assert.match(b.reason, /./);
  assert.equal(wasm.call({ cmd: "state", record: a.record }).move_number, 2);
  const bad = wasm.call({ cmd: "play", record: "[Board \"Atlantis\"]", placement: "x" });
  assert.equal(bad.error, "bad_record");
});

test("level 9 in the module keeps its time by the page's clock, a slice of simulations at a time", { timeout: 180_000 }, async () => {
  const wasm = await (await loadTs("engine/module.ts")).instantiate(wasmBytes);
  const { record } = wasm.call({ cmd: "new", board: "chullpa", players: 2 });
  const start = performance.now();
  const a = wasm.call({ cmd: "ai", record, level: 9, seed: 1 });
  const took = performance.now() - start;
  assert.equal(a.error, undefined, a.reason);
  assert.ok(wasm.call({ cmd: "legal", record }).legal.includes(a.placement));
  // Liveness bounds, not a speed figure: it stopped after 4.5 s, having searched more than a slice.
  assert.ok(took >= 4500 && took < 60_000, `${took} ms`);
  assert.ok(a.simulations > 250, JSON.stringify(a));
});

test("the app's probes: SIMD and relaxed SIMD valid in Node.js (relaxed SIMD turned on above), so the relaxed module is picked", { timeout: 180_000 }, async () => {
  const { hasSimd, hasRelaxedSimd, pickModule } = await loadTs("engine/simd.ts");
  assert.equal(hasSimd(), true);
  assert.equal(hasRelaxedSimd(), true);
  assert.equal(pickModule({ relaxed: "r.wasm", simd: "s.wasm", scalar: "p.wasm" }), "r.wasm");
  // The modules they vouch for do compile here.
  await WebAssembly.compile(simdBytes);
  await WebAssembly.compile(relaxedBytes);
  // Without relaxed SIMD (the flag off again), the SIMD module; the relaxed one is refused.
  if (!process.version.match(/^v20\./)) return;
  setFlagsFromString("--no-experimental-wasm-relaxed-simd");
  try {
    assert.equal(hasRelaxedSimd(), false);
    assert.equal(pickModule({ relaxed: "r.wasm", simd: "s.wasm", scalar: "p.wasm" }), "s.wasm");
    assert.equal(WebAssembly.validate(relaxedBytes), false);
  } finally {
    setFlagsFromString("--experimental-wasm-relaxed-simd");
  }
});
