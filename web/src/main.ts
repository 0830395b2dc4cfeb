// The app's pages, by path: `/` starts or joins a game, `/game/ID` plays or watches one,
// `/puzzle` is the solitaire.
import "./style.css";
import "./i18n";
import { GamePage } from "./game";
import { PuzzlePage } from "./puzzle";
import { StartPage } from "./start";

const root = document.getElementById("app")!;
const game = location.pathname.match(/^\/game\/([A-Za-z0-9]+)\/?$/);
if (game) void new GamePage(root, game[1]).start();
else if (/^\/puzzle\/?$/.test(location.pathname)) void new PuzzlePage(root).start();
else void new StartPage(root).start();
