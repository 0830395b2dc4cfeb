// The app's pages, by path: `/` starts or joins a game, `/game/ID` plays or watches one
// (with the guide attached when this browser started it as a guided first game),
// `/how-to-play` explains the rules, `/puzzle` is the solitaire, `/training` the game's
// puzzles (`?daily`: the daily puzzle), `/boards/edit` the board editor,
// `/lobby` the lobby, `/players/ID` a player's page (`/players/import` brings a key), `/leaderboard` the ratings.
import "./style.css";
import "./i18n";
import { GamePage } from "./game";
import { PuzzlePage } from "./puzzle";
import { TrainingPage } from "./training/page";
import { StartPage } from "./start";
import { HowToPage } from "./howto/page";
import { attachTutorial } from "./tutorial/overlay";
import { EditorPage } from "./editor/page";
import { localBackend } from "./engine/local";
import { localGames } from "./engine/games";
import { registerOffline } from "./offline";
import { LobbyPage } from "./lobby/page";
import { LeaderboardPage, PlayerPage } from "./players/page";
import { attachTable } from "./game/table";

const root = document.getElementById("app")!;
const game = location.pathname.match(/^\/game\/([A-Za-z0-9]+)\/?$/);
// A local game is addressed by a query on the start page's address, so a static file server
// (which knows nothing of /game/ID) serves it too.
const local = new URLSearchParams(location.search).get("local");
registerOffline();
if (local && /^[A-Za-z0-9]+$/.test(local)) {
  // The local games are read from IndexedDB first (games.ts).
  void localGames.ready().then(() => {
    const page = new GamePage(root, local, localBackend);
    void page.start();
    // A guided first game started without a server is a local one.
    attachTutorial(local, page.guideSlot, page.follow, localBackend);
  });
} else if (game) {
  const page = new GamePage(root, game[1]);
  void page.start();
  attachTutorial(game[1], page.guideSlot, page.follow);
  attachTable(game[1], page.tableSlot, page.follow, { rematchSlot: page.rematchSlot, table: (names, lobby) => page.setTable(names, lobby) });
} else if (/^\/puzzle\/?$/.test(location.pathname)) void new PuzzlePage(root).start();
else if (/^\/training\/?$/.test(location.pathname)) void new TrainingPage(root).start();
else if (/^\/how-to-play\/?$/.test(location.pathname)) void new HowToPage(root).start();
else if (/^\/boards\/edit\/?$/.test(location.pathname)) void new EditorPage(root).start();
else if (/^\/lobby\/?$/.test(location.pathname)) void new LobbyPage(root).start();
else if (/^\/leaderboard\/?$/.test(location.pathname)) void new LeaderboardPage(root).start();
else if (/^\/players\/import\/?$/.test(location.pathname)) void new PlayerPage(root, null).start();
else if (/^\/players\/[0-9a-f]{16}\/?$/.test(location.pathname)) void new PlayerPage(root, location.pathname.split("/")[2]).start();
else void new StartPage(root).start();
