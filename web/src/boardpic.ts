// The start page's picture of a board: its plinth, its tiles and, on each column that may be
// built, a sandstone block up to the column's height limit for the player count (the space
// a game may fill), seen from the front right and above as the game's 3D view first shows
// it. Drawn on a 2D canvas (paint.ts), each picture once and kept.
//
// Why not WebGL: rendering the six pictures with the 3D view and reading them back cost
// about 1 CPU-second per start page on a software renderer (2.0 → 1.0 CPU-s per page load in
// Chromium with SwiftShader, six loads), and a WebGL context on a phone only for pictures.
import type { LayoutCell } from "./wire";
import { type Box, corners, paintBoxes, Projection } from "./paint";

/** The picture's size in CSS pixels (as the 3D view's off-screen preview was). */
const WIDTH = 440;
const HEIGHT = 300;
/** As the 3D view's first camera (fit.ts's `fitCamera`). */
const FROM: [number, number, number] = [0.35, 0.75, 0.9];
// The 3D view's colours for the same parts (view3d.ts: the plinth, the tiles' sides and
// tops, the volume's sandstone and its edges).
const PLINTH = 0x7b6a52;
const TILE_SIDE = 0xc9bd9f;
const TILE_TOP = 0xe9e1cf;
const SANDSTONE = 0xe3cfa4;
const SANDSTONE_EDGE = "rgba(138,106,69,0.6)";
const BACKGROUND = "#f4efe4";

const cache = new Map<string, string>();

/** A PNG data URL of the board `files` × `ranks` with the columns `cells`; null without a 2D canvas. */
export function boardPicture(files: number, ranks: number, cells: LayoutCell[]): string | null {
  const key = `${files}x${ranks}|${cells.map((c) => `${c.x},${c.y},${c.limit}`).join(";")}`;
  const known = cache.get(key);
  if (known) return known;
  const scale = Math.min(2, Math.max(1, window.devicePixelRatio || 1));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(WIDTH * scale);
  canvas.height = Math.round(HEIGHT * scale);
  const g = canvas.getContext("2d", { willReadFrequently: true });
  if (!g) return null;
  g.fillStyle = BACKGROUND;
  g.fillRect(0, 0, canvas.width, canvas.height);

  // Game column (x, y) covers x..x+1 across and, towards the viewer, -y-1..-y, centred on
  // the board as the 3D view places it.
  const at = (x: number, y: number): [number, number] => [x - files / 2, ranks / 2 - y - 1];
  const plinth: Box = { lo: [-files / 2 - 0.2, -0.32, -ranks / 2 - 0.2], hi: [files / 2 + 0.2, -0.12, ranks / 2 + 0.2], colour: PLINTH };
  // Back to front: a column hides only columns behind it or to its left (the viewer is at
  // the front right), so the order of x - y (the sum of the picture's depth directions)
  // paints the nearer over the farther; within a column, the tile before its block.
  const columns = [...cells].sort((a, b) => a.x - a.y - (b.x - b.y) || a.x - b.x);
  const boxes: Box[] = [plinth];
  for (const c of columns) {
    const [x, z] = at(c.x, c.y);
    boxes.push({ lo: [x + 0.01, -0.12, z + 0.01], hi: [x + 0.99, 0, z + 0.99], colour: TILE_SIDE, top: TILE_TOP });
    if (c.limit > 0) boxes.push({ lo: [x + 0.01, 0, z + 0.01], hi: [x + 0.99, c.limit, z + 0.99], colour: SANDSTONE, edge: SANDSTONE_EDGE });
  }
  const p = new Projection(FROM).fit(corners(boxes), canvas.width, canvas.height, 0.9);
  g.lineWidth = scale;
  paintBoxes(g, boxes, p);
  const url = canvas.toDataURL("image/png");
  cache.set(key, url);
  return url;
}
