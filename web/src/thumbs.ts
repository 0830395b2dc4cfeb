// Small 3D pictures of a stone in one orientation, for the tray: drawn with a 2D canvas,
// each picture once into an image (PNG data URL) and kept. Readable at phone size where a
// flat drawing of a tipped stone was not.
//
// Why not WebGL: a tray of pictures rendered by a shared WebGL renderer and read back with
// toDataURL cost about 1.1 s of main-thread time per game page on a software renderer
// (each read-back waits for the GPU). The stone is a few unit cubes seen from one fixed
// direction, so painting their visible faces back to front gives the same picture for
// a fraction of the cost, with or without a GPU.
import type { Letter, StoneInfo } from "./api";
import { COLOURS } from "./view3d";

const SIZE = 96;
const cache = new Map<string, string>();

type Vec = [number, number, number];
const dot = (a: Vec, b: Vec) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm = (a: Vec): Vec => {
  const l = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / l, a[1] / l, a[2] / l];
};
const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

// Picture axes: x = file, y = level up, z = rank towards the viewer (game rank y is -z).
// The viewer looks from the front right and above; every component of VIEW is positive,
// so each cube shows its +x, +y and +z faces, and painting cubes in order of increasing
// centre·VIEW never paints a farther face over a nearer one (grid cubes of equal size).
const VIEW = norm([2.2, 2.4, 3.2]);
const RIGHT = norm(cross([0, 1, 0], VIEW));
const UP = cross(VIEW, RIGHT);
const SUN = norm([4, 9, 6]);
const HALF = 0.47; // cubes a little under 1, so neighbours show their seam

// Each visible face: its normal and its four corners as offsets from the cube's centre.
const FACES: { normal: Vec; corners: Vec[] }[] = [
  { normal: [1, 0, 0], corners: [[1, -1, -1], [1, 1, -1], [1, 1, 1], [1, -1, 1]] },
  { normal: [0, 1, 0], corners: [[-1, 1, -1], [1, 1, -1], [1, 1, 1], [-1, 1, 1]] },
  { normal: [0, 0, 1], corners: [[-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]] },
];

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toSrgb = (c: number) => (c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055);
const SKY = 1;
const GROUND = [0x8a, 0x7f, 0x6a].map((c) => toLinear(c / 255));

/** The face's colour: diffuse light from a sky/ground hemisphere and one sun, as the 3D board's stones are lit. */
function shade(hex: number, normal: Vec): string {
  const base = [(hex >> 16) & 255, (hex >> 8) & 255, hex & 255].map((c) => toLinear(c / 255));
  const skyWeight = 0.5 * normal[1] + 0.5;
  const sun = Math.max(0, dot(normal, SUN)) * 1.5;
  const rgb = base.map((b, i) => {
    const hemi = (GROUND[i] + (SKY - GROUND[i]) * skyWeight) * 2.2;
    const light = b * ((hemi + sun) / Math.PI);
    return Math.round(255 * toSrgb(Math.min(1, light)));
  });
  return `rgb(${rgb[0]},${rgb[1]},${rgb[2]})`;
}

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
  const scale = SIZE / 2 / radius;
  const project = (p: Vec): [number, number] => {
    const q: Vec = [p[0] - mid[0], p[1] - mid[1], p[2] - mid[2]];
    return [SIZE / 2 + dot(q, RIGHT) * scale, SIZE / 2 - dot(q, UP) * scale];
  };
  const colours = FACES.map((f) => shade(COLOURS[letter], f.normal));
  g.lineWidth = 1;
  g.lineJoin = "round";
  g.strokeStyle = "#1d1a16";
  for (const c of [...centres].sort((a, b) => dot(a, VIEW) - dot(b, VIEW))) {
    FACES.forEach((face, i) => {
      g.beginPath();
      face.corners.forEach(([dx, dy, dz], k) => {
        const [sx, sy] = project([c[0] + dx * HALF, c[1] + dy * HALF, c[2] + dz * HALF]);
        if (k === 0) g.moveTo(sx, sy);
        else g.lineTo(sx, sy);
      });
      g.closePath();
      g.fillStyle = colours[i];
      g.fill();
      g.stroke();
    });
  }
  const url = canvas.toDataURL("image/png");
  cache.set(key, url);
  return url;
}
