// The game page lives in game/ (store, follower, view, move list, panels, end screen).
export { GamePage } from "./game/page";
