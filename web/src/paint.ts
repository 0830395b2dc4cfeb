// Painting unit-grid boxes on a 2D canvas as the 3D view lights them: the tray's stone
// pictures (thumbs.ts) and the start page's board pictures (boardpic.ts).
//
// Axes as the 3D view's: x = file, y = level up, z = rank towards the viewer (game rank y is
// -z). A viewer looking from a direction with every component positive sees each box's +x,
// +y and +z faces only, so a picture is those faces painted back to front.

export type Vec = [number, number, number];
export const dot = (a: Vec, b: Vec) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const norm = (a: Vec): Vec => {
  const l = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / l, a[1] / l, a[2] / l];
};
const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** The three faces a viewer from (+, +, +) sees: each one's normal and corners, as 0/1 picks of a box's low and high bounds. */
const FACES: { normal: Vec; corners: Vec[] }[] = [
  { normal: [1, 0, 0], corners: [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 0, 1]] },
  { normal: [0, 1, 0], corners: [[0, 1, 0], [1, 1, 0], [1, 1, 1], [0, 1, 1]] },
  { normal: [0, 0, 1], corners: [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]] },
];

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toSrgb = (c: number) => (c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055);
const SKY = 1;
const GROUND = [0x8a, 0x7f, 0x6a].map((c) => toLinear(c / 255));
const SUN = norm([4, 9, 6]);

/** A face's colour: diffuse light from a sky/ground hemisphere and one sun, as the 3D view lights its boxes. */
export function shade(hex: number, normal: Vec): string {
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

/** An axis-aligned box from `lo` to `hi`, its colour (null: edges only) and, if any, the colour of its edges. */
export interface Box {
  lo: Vec;
  hi: Vec;
  colour: number | null;
  /** The colour of its top face, if not `colour`. */
  top?: number;
  /** Its faces' opacity (1 when not given). */
  alpha?: number;
  edge?: string;
}

/** An orthographic view from `from` (every component positive), fitted to a picture. */
export class Projection {
  readonly view: Vec;
  private right: Vec;
  private up: Vec;
  private scale = 1;
  private offset: [number, number] = [0, 0];

  constructor(from: Vec) {
    this.view = norm(from);
    const side = cross([0, 1, 0], this.view);
    // Straight from above: files across, ranks up the picture (as the 3D view's top view).
    this.right = Math.hypot(...side) < 1e-9 ? [1, 0, 0] : norm(side);
    this.up = cross(this.view, this.right);
  }

  /** Scales and centres so that every point of `points` lies in a `w` × `h` picture, `margin` of it used. */
  fit(points: Vec[], w: number, h: number, margin: number) {
    const xs = points.map((p) => dot(p, this.right));
    const ys = points.map((p) => dot(p, this.up));
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    this.scale = Math.min((w * margin) / Math.max(x1 - x0, 1e-6), (h * margin) / Math.max(y1 - y0, 1e-6));
    this.offset = [w / 2 - ((x0 + x1) / 2) * this.scale, h / 2 + ((y0 + y1) / 2) * this.scale];
    return this;
  }

  /** Puts `mid` at the centre of a `w` × `h` picture, `scale` pixels to a unit. */
  centre(mid: Vec, scale: number, w: number, h: number) {
    this.scale = scale;
    this.offset = [w / 2 - dot(mid, this.right) * scale, h / 2 + dot(mid, this.up) * scale];
    return this;
  }

  project(p: Vec): [number, number] {
    return [this.offset[0] + dot(p, this.right) * this.scale, this.offset[1] - dot(p, this.up) * this.scale];
  }
}

/** Every corner of each box (for [`Projection.fit`]). */
export function corners(boxes: Box[]): Vec[] {
  return boxes.flatMap((b) => [0, 1, 2, 3, 4, 5, 6, 7].map((k): Vec => [k & 1 ? b.hi[0] : b.lo[0], k & 2 ? b.hi[1] : b.lo[1], k & 4 ? b.hi[2] : b.lo[2]]));
}

/** Paints the visible faces of `boxes`, in the order given (the caller's back to front). */
export function paintBoxes(g: CanvasRenderingContext2D, boxes: Box[], p: Projection) {
  g.lineJoin = "round";
  for (const b of boxes) {
    FACES.forEach((face) => {
      g.beginPath();
      face.corners.forEach(([cx, cy, cz], k) => {
        const [sx, sy] = p.project([cx ? b.hi[0] : b.lo[0], cy ? b.hi[1] : b.lo[1], cz ? b.hi[2] : b.lo[2]]);
        if (k === 0) g.moveTo(sx, sy);
        else g.lineTo(sx, sy);
      });
      g.closePath();
      if (b.colour !== null) {
        g.globalAlpha = b.alpha ?? 1;
        g.fillStyle = shade(face.normal[1] === 1 && b.top !== undefined ? b.top : b.colour, face.normal);
        g.fill();
        g.globalAlpha = 1;
      }
      if (b.edge) {
        g.strokeStyle = b.edge;
        g.stroke();
      }
    });
  }
}
