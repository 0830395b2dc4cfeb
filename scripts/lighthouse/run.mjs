// Lighthouse's accessibility and best-practices scores of the start page, a game page and How
// to play, from a `rumis serve` of the built app (web/e2e/harness.mjs starts it: $RUMIS_BIN,
// a fresh database, web/dist). Prints a table of the scores and exits 1 when one is under
// MIN (95), listing the audits that failed. Lighthouse lives in this folder, pinned (12.2.3,
// the last to run on Node 20), with its own lockfile: its 146 packages stay out of web/'s lockfile.
//   npm --prefix scripts/lighthouse ci          # once
//   npm --prefix web run build
//   RUMIS_BIN=target/debug/rumis node scripts/lighthouse/run.mjs
// Chromium: $CHROME_PATH, else Debian's /usr/bin/chromium. FORM=desktop for Lighthouse's
// desktop settings instead of its default (a phone).
import lighthouse from "lighthouse";
import desktop from "lighthouse/core/config/desktop-config.js";
import * as chromeLauncher from "chrome-launcher";
import { createRequire } from "node:module";
import { startServer, api } from "../../web/e2e/harness.mjs";

const { version } = createRequire(import.meta.url)("lighthouse/package.json");

const MIN = 95;
const CATEGORIES = ["accessibility", "best-practices"];
const config = process.env.FORM === "desktop" ? desktop : undefined;

const server = await startServer();
let chrome;
let failed = false;
try {
  const game = await api(server.url, "/games", {
    method: "POST",
    body: JSON.stringify({ board: "Chullpa", players: 2, seats: [{ kind: "human" }, { kind: "ai", level: 2 }] }),
  });
  const seat = game.seats[0];
  const pages = [
    ["start page", `${server.url}/`],
    ["game page", `${server.url}/game/${game.id}#seat=${seat.seat}&token=${seat.token}`],
    ["How to play", `${server.url}/how-to-play`],
  ];
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu", "--use-gl=swiftshader", "--enable-unsafe-swiftshader"],
  });
  const rows = [];
  for (const [name, url] of pages) {
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES }, config);
    const lhr = result.lhr;
    const scores = CATEGORIES.map((c) => Math.round((lhr.categories[c].score ?? 0) * 100));
    rows.push([name, ...scores.map(String)]);
    for (const [i, c] of CATEGORIES.entries()) {
      if (scores[i] >= MIN) continue;
      failed = true;
      const bad = lhr.categories[c].auditRefs.filter((r) => r.weight > 0 && (lhr.audits[r.id].score ?? 1) < 1).map((r) => `${r.id}: ${lhr.audits[r.id].title}`);
      console.error(`${name}, ${c} ${scores[i]} < ${MIN}:\n  ${bad.join("\n  ")}`);
    }
  }
  const head = ["page", ...CATEGORIES];
  const width = head.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k].length)));
  const line = (r) => `| ${r.map((cell, k) => (k ? cell.padStart(width[k]) : cell.padEnd(width[k]))).join(" | ")} |`;
  console.log([`Lighthouse ${version} (${process.env.FORM === "desktop" ? "desktop" : "mobile"}), scores out of 100, at least ${MIN} each:`, line(head), `|${width.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n"));
} finally {
  await chrome?.kill();
  await server.stop();
}
process.exit(failed ? 1 : 0);
