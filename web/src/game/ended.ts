// Whether a game takes no more stones, in one place for the page's parts (the tray, the
// players' table, the buttons): an aborted game's state still says whose turn it was.
import type { GameState } from "../wire";

/** No stone will be placed in this game any more: it was played to its end, or called off. */
export const noMoreMoves = (s: GameState): boolean => s.over || s.status === "aborted";
