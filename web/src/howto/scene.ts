// Small still pictures of positions, for the lessons: a board, the cubes of a position and
// a placement, painted on a 2D canvas (paint.ts) and returned as a PNG. It draws what the
// API gives (every cube of position and placement, from the core) and knows no rule.
// Each picture's cubes, as drawn, are kept in `window.__rumisLessonScenes[id]` so a test
// can compare them with the API's.
//
// Why not WebGL: a dozen pictures rendered by three.js and read back made How to play cost
// about as much as a game page on a software renderer, for still pictures of unit cubes
// that a painter's drawing of their visible faces gives as well (as the start page's board
// pictures and the stone tray's).
import type { Xyz } from "../api";
import type { Letter } from "../wire";
import { COLOURS } from "../view3d";
import { type Box, type Vec, corners, dot, paintBoxes, Projection } from "../paint";

export interface SceneBoard {
  files: number;
  ranks: number;
  hmax: number;
  cells: { x: number; y: number; limit: number; printed: number | null }[];
}

export interface Scene {
  id: string;
  board: SceneBoard;
  structure: { colour: Letter; cubes: Xyz[] }[];
  placement?: { colour: Letter; cubes: Xyz[]; legal: boolean } | null;
  /** Seen from straight above, as the score counts. */
  top?: boolean;
  /** Draw each cell's height limit (a faint frame at that level). */
  limits?: boolean;
  /** Pixels, when not the usual picture size. */
  size?: { width: number; height: number };
}

export interface DrawnScene {
  structure: [number, number, number, string][];
  placement: Xyz[];
}

const drawn: Record<string, DrawnScene> = {};
(window as unknown as { __rumisLessonScenes: Record<string, DrawnScene> }).__rumisLessonScenes = drawn;

export const PICTURE = { width: 360, height: 250 };

/** As the 3D view's first camera (fit.ts's `fitCamera`). */
const FROM: Vec = [0.35, 0.75, 0.9];
const TILE = 0xe9e1cf;
const PLINTH = 0x7b6a52;
const CUBE_EDGE = "rgba(29,26,22,0.55)";
const LIMIT_EDGE = "rgba(138,106,69,0.35)";

/** Draws a scene and returns it as a PNG data URL ("" without a 2D canvas). */
export function picture(scene: Scene): string {
  const { width, height } = scene.size ?? PICTURE;
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const g = canvas.getContext("2d", { willReadFrequently: true });
  if (!g) return "";
  g.fillStyle = "#f4efe4";
  g.fillRect(0, 0, width, height);
  const { files, ranks } = scene.board;
  // Game cube (x, y, z) at level z: its centre in the picture's axes, centred on the board.
  const centre = (x: number, y: number, z: number): Vec => [x + 0.5 - files / 2, z + 0.5, ranks / 2 - (y + 0.5)];
  const around = (c: Vec, half: number, y0 = c[1] - half, y1 = c[1] + half) => ({
    lo: [c[0] - half, y0, c[2] - half] as Vec,
    hi: [c[0] + half, y1, c[2] + half] as Vec,
  });

  // The floor first: the plinth, then a tile per buildable cell.
  const floor: Box[] = [{ lo: [-files / 2 - 0.2, -0.32, -ranks / 2 - 0.2], hi: [files / 2 + 0.2, -0.12, ranks / 2 + 0.2], colour: PLINTH }];
  for (const c of scene.board.cells) floor.push({ ...around(centre(c.x, c.y, 0), 0.49, -0.12, 0), colour: TILE });

  // Then, back to front (unit cubes on a grid: by centre·view), the cubes of the structure,
  // the placement's (solid with a white outline when legal; see-through with a dark red
  // outline when the core refuses it) and, when drawn, each cell's height limit as a faint
  // frame at that level.
  const record: DrawnScene = { structure: [], placement: [] };
  const items: { key: Vec; boxes: Box[] }[] = [];
  for (const s of scene.structure) {
    for (const [x, y, z] of s.cubes) {
      const c = centre(x, y, z);
      items.push({ key: c, boxes: [{ ...around(c, 0.48), colour: COLOURS[s.colour], edge: CUBE_EDGE }] });
      record.structure.push([x, y, z, s.colour]);
    }
  }
  if (scene.placement) {
    const { legal, colour } = scene.placement;
    for (const [x, y, z] of scene.placement.cubes) {
      const c = centre(x, y, z);
      items.push({
        key: c,
        boxes: [
          { ...around(c, 0.48), colour: COLOURS[colour], alpha: legal ? 1 : 0.6 },
          { ...around(c, 0.53), colour: null, edge: legal ? "#ffffff" : "#9b111e" },
        ],
      });
      record.placement.push([x, y, z]);
    }
  }
  if (scene.limits && !scene.top) {
    for (const c of scene.board.cells) {
      const at = centre(c.x, c.y, c.limit);
      items.push({ key: [at[0], c.limit, at[2]], boxes: [{ ...around(at, 0.49, c.limit, c.limit), colour: null, edge: LIMIT_EDGE }] });
    }
  }
  const p = new Projection(scene.top ? [0, 1, 0] : FROM);
  items.sort((a, b) => dot(a.key, p.view) - dot(b.key, p.view));
  const boxes = [...floor, ...items.flatMap((i) => i.boxes)];
  // Everything in view: the board, the limits when drawn, and a refused stone that sticks out.
  p.fit(corners(boxes), width, height, 0.94);
  g.lineWidth = 1;
  paintBoxes(g, boxes, p);
  drawn[scene.id] = record;
  return canvas.toDataURL("image/png");
}
