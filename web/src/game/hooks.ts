// Hooks for the browser tests: where things are on screen, and what the page holds.
import type { Letter } from "../wire";
import type { Placer } from "../placer";
import type { GameView } from "./view";

export function installTestHooks(view: GameView, placer: Placer) {
  (window as unknown as Record<string, unknown>).rumis = {
    screenPoint: (x: number, y: number, z: number) => view.screenPoint(x, y, z),
    placements: () => placer.placements,
    current: () => placer.current?.placement ?? null,
    selected: () => placer.selected,
    /** The page point over the column where a placement's anchor cube would rest. */
    anchorPoint: (placement: string) => {
      const p = placer.placements.find((q) => q.placement === placement);
      if (!p) return null;
      const [x, y] = placer.anchorColumn(p);
      return view.screenPoint(x, y, view.height(x, y) - 0.5);
    },
    ghostColour: () => view.ghostColour(),
    stoneColour: (letter: Letter) => view.stoneColour(letter),
    markedPlaces: () => view.placeCount(),
    markedAnchors: () => view.placeAnchors(),
    select: (stone: string) => placer.select(stone),
    numberPoints: () => view.numberPoints(),
    /** Cubes highlighted from the move list. */
    highlighted: () => view.highlightCount(),
    /** The structure's cubes as drawn, `[x, y, z, letter]`. */
    cubes: () => view.drawnCubes(),
  };
}
