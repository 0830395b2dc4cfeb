// Small 3D pictures of a stone in one orientation, for the tray: drawn with a 2D canvas,
// each picture once into an image (PNG data URL) and kept. Readable at phone size where a
// flat drawing of a tipped stone was not.
//
// Why not WebGL: a tray of pictures rendered by a shared WebGL renderer and read back with
// toDataURL cost about 1.1 s of main-thread time per game page on a software renderer
// (each read-back waits for the GPU). The stone is a few unit cubes seen from one fixed
// direction, so painting their visible faces back to front gives the same picture for
// a fraction of the cost, with or without a GPU.
import type { Letter, StoneInfo } from "./wire";
import { COLOURS } from "./view3d";
import { type Box, type Vec, dot, paintBoxes, Projection } from "./paint";

const SIZE = 96;
const cache = new Map<string, string>();

// The viewer looks from the front right and above (paint.ts); painting cubes in order of
// increasing centre·view never paints a farther face over a nearer one (grid cubes of equal
// size).
const VIEW: Vec = [2.2, 2.4, 3.2];
const HALF = 0.47; // cubes a little under 1, so neighbours show their seam

/** A picture of `stone` in `orientation`, in `letter`'s colour, seen from the front right and above; null without a 2D canvas. */
export function stoneThumbnail(stone: StoneInfo, orientation: number, letter: Letter): string | null {
  const key = `${stone.code}|${orientation}|${letter}`;
  const known = cache.get(key);
  if (known) return known;
  const canvas = document.createElement("canvas");
  canvas.width = SIZE;
  canvas.height = SIZE;
  // A canvas kept in memory (not on the GPU): the picture is read back once, at once.
  const g = canvas.getContext("2d", { willReadFrequently: true });
  if (!g) return null; // The caller draws the flat icon.
  const cells = stone.orientations[orientation] ?? stone.orientations[0];
  const centres: Vec[] = cells.map(([x, y, z]) => [x, z, -y]);
  // Centre the stone and size it by its widest extent, so every stone fills the picture alike.
  const lo = [0, 1, 2].map((i) => Math.min(...centres.map((c) => c[i])) - HALF);
  const hi = [0, 1, 2].map((i) => Math.max(...centres.map((c) => c[i])) + HALF);
  const mid: Vec = [0, 1, 2].map((i) => (lo[i] + hi[i]) / 2) as Vec;
  const radius = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2;
  const p = new Projection(VIEW).centre(mid, SIZE / 2 / radius, SIZE, SIZE);
  const boxes: Box[] = [...centres]
    .sort((a, b) => dot(a, p.view) - dot(b, p.view))
    .map((c) => ({ lo: [c[0] - HALF, c[1] - HALF, c[2] - HALF], hi: [c[0] + HALF, c[1] + HALF, c[2] + HALF], colour: COLOURS[letter], edge: "#1d1a16" }));
  g.lineWidth = 1;
  paintBoxes(g, boxes, p);
  const url = canvas.toDataURL("image/png");
  cache.set(key, url);
  return url;
}
