// The release archive's check in a browser (scripts/release --browser): against the server
// at $RUMIS_URL (the archive's binary, serving the app it carries), the start page renders
// its boards and a game against the AI is played from the keyboard to its end. Screenshots:
// web/e2e/out/archive-start.png, archive-game.png, archive-end.png. Not a *.test.mjs: the
// browser tests start their own server.
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, outDir, yourTurn, keyboardMove, openPage } from "./harness.mjs";

const url = process.env.RUMIS_URL;
if (!url) throw new Error("RUMIS_URL: the server to check");
const started = Date.now();
const browser = await launch();
try {
  const page = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  const errors = page.errors;
  const shot = (name) => page.screenshot({ path: join(outDir, `archive-${name}.png`) });

  await page.goto(url);
  await page.waitForSelector(".board-card img");
  const boards = await page.$$eval(".board-card", (els) => els.length);
  await shot("start");

  await page.click('.board-card[data-board="Chullpa"]');
  await page.selectOption('select[data-seat="1"]', "ai:1");
  await page.click("#create");
  await page.waitForURL(/\/game\/[a-z0-9]+$/);
  let moves = 0;
  for (let i = 0; i < 80 && (await yourTurn(page)); i++) {
    await keyboardMove(page);
    moves++;
    if (moves === 3) await shot("game");
  }
  await page.waitForSelector("#final-scores");
  await shot("end");
  const state = await (await fetch(`${url}/api/v1/games/${page.url().split("/game/")[1]}`)).json();
  assert.ok(state.over, "the game is over");
  assert.deepEqual(errors, []);
  console.log(
    `browser: ${boards} boards on the start page; a game against AI level 1 on Chullpa to its end, ` +
      `${state.moves_played} moves (${moves} from the keyboard) in ${((Date.now() - started) / 1000).toFixed(0)} s; ` +
      `screenshots in ${outDir}/archive-*.png`,
  );
} finally {
  await browser.close();
}
