// Pictures drawn on canvases for the 3D view: letters and patterns on cubes, numbers on
// board tiles, and small text labels that always face the camera.
import * as THREE from "three";
import type { Letter } from "./wire";

type World = (x: number, y: number) => THREE.Vector3;

/** A canvas texture with the colour's letter and a pattern, for telling colours apart without hue. */
export function labelTexture(letter: Letter): THREE.Texture {
  const c = document.createElement("canvas");
  c.width = c.height = 64;
  const g = c.getContext("2d")!;
  g.fillStyle = "#ffffff";
  g.fillRect(0, 0, 64, 64);
  g.strokeStyle = "rgba(0,0,0,0.35)";
  g.lineWidth = 4;
  g.beginPath();
  if (letter === "R") for (let i = -64; i < 128; i += 16) (g.moveTo(i, 64), g.lineTo(i + 64, 0));
  if (letter === "G") for (let i = 8; i < 64; i += 16) (g.moveTo(0, i), g.lineTo(64, i));
  if (letter === "B") for (let i = 8; i < 64; i += 16) (g.moveTo(i, 0), g.lineTo(i, 64));
  g.stroke();
  if (letter === "Y") {
    g.fillStyle = "rgba(0,0,0,0.35)";
    for (let i = 8; i < 64; i += 16) for (let j = 8; j < 64; j += 16) g.fillRect(i - 3, j - 3, 6, 6);
  }
  g.fillStyle = "rgba(0,0,0,0.85)";
  g.font = "bold 40px sans-serif";
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(letter, 32, 34);
  const t = new THREE.CanvasTexture(c);
  t.colorSpace = THREE.SRGBColorSpace;
  return t;
}

function numberTexture(text: string): THREE.Texture {
  const c = document.createElement("canvas");
  c.width = c.height = 64;
  const g = c.getContext("2d")!;
  g.fillStyle = "#e9e1cf";
  g.fillRect(0, 0, 64, 64);
  g.strokeStyle = "#b9ad93";
  g.lineWidth = 3;
  g.strokeRect(1.5, 1.5, 61, 61);
  if (text) {
    g.fillStyle = "#6f6452";
    g.font = "bold 30px sans-serif";
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.fillText(text, 32, 34);
  }
  const t = new THREE.CanvasTexture(c);
  t.colorSpace = THREE.SRGBColorSpace;
  return t;
}

const numberTextures = new Map<string, THREE.Texture>();
export function tileTexture(text: string) {
  let t = numberTextures.get(text);
  if (!t) numberTextures.set(text, (t = numberTexture(text)));
  return t;
}


/** A label that faces the camera: `text` on a rounded box, `height` world units tall. */
export function textSprite(text: string, height = 0.4, colour = "#4b4032", background: string | null = null): THREE.Sprite {
  const c = document.createElement("canvas");
  const px = 48;
  const g0 = c.getContext("2d")!;
  g0.font = `bold ${px}px sans-serif`;
  const w = Math.ceil(g0.measureText(text).width) + 16;
  c.width = Math.max(w, 64);
  c.height = 64;
  const g = c.getContext("2d")!;
  if (background) {
    g.fillStyle = background;
    g.beginPath();
    g.roundRect(2, 2, c.width - 4, 60, 14);
    g.fill();
  }
  g.fillStyle = colour;
  g.font = `bold ${px}px sans-serif`;
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(text, c.width / 2, 35);
  const t = new THREE.CanvasTexture(c);
  t.colorSpace = THREE.SRGBColorSpace;
  const s = new THREE.Sprite(new THREE.SpriteMaterial({ map: t, depthWrite: false, depthTest: false }));
  s.scale.set((height * c.width) / c.height, height, 1);
  s.renderOrder = 20;
  return s;
}

/**
 * The height limits: the outline of each plateau of equal limit, drawn faintly at its level
 * (edges where the neighbour's limit differs or it is not buildable), so a tall board shows
 * one frame per step instead of a square over every cell.
 */
export function limitOutline(cells: { x: number; y: number; limit: number }[], world: World): THREE.LineSegments {
  const points: number[] = [];
  const limitOf = new Map(cells.map((c) => [`${c.x},${c.y}`, c.limit]));
  for (const c of cells) {
    const p = world(c.x, c.y);
    for (const [dx, dy] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ]) {
      if ((limitOf.get(`${c.x + dx},${c.y + dy}`) ?? 0) === c.limit) continue;
      const q = world(c.x + dx, c.y + dy);
      const [mx, mz] = [(p.x + q.x) / 2, (p.z + q.z) / 2];
      if (dx !== 0) points.push(mx, c.limit, p.z - 0.5, mx, c.limit, p.z + 0.5);
      else points.push(p.x - 0.5, c.limit, mz, p.x + 0.5, c.limit, mz);
    }
  }
  const g = new THREE.BufferGeometry();
  g.setAttribute("position", new THREE.Float32BufferAttribute(points, 3));
  return new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color: 0x9c8f74, transparent: true, opacity: 0.45 }));
}

/** The files' letters along the front edge and the ranks' numbers along the left one. */
export function coordinateLabels(files: number, ranks: number, world: World): THREE.Sprite[] {
  const make = (text: string, x: number, z: number) => {
    const c = document.createElement("canvas");
    c.width = c.height = 64;
    const g = c.getContext("2d")!;
    g.fillStyle = "#4b4032";
    g.font = "bold 36px sans-serif";
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.fillText(text, 32, 34);
    const t = new THREE.CanvasTexture(c);
    const s = new THREE.Sprite(new THREE.SpriteMaterial({ map: t, depthWrite: false }));
    s.scale.set(0.45, 0.45, 0.45);
    s.position.set(x, 0.05, z);
    s.userData = { coordinate: text };
    return s;
  };
  const out: THREE.Sprite[] = [];
  for (let f = 0; f < files; f++) out.push(make(String.fromCharCode(97 + f), world(f, 0).x, ranks / 2 + 0.55));
  for (let r = 0; r < ranks; r++) out.push(make(String(r + 1), -files / 2 - 0.55, world(0, r).z));
  return out;
}

let software: boolean | undefined;

/**
 * Whether WebGL draws without a GPU here (asked once, of a throwaway context): Chromium's
 * SwiftShader, Mesa's llvmpipe or softpipe, Windows' basic render driver.
 */
export function softwareRenderer(): boolean {
  if (software === undefined) {
    const gl = document.createElement("canvas").getContext("webgl");
    const info = gl?.getExtension("WEBGL_debug_renderer_info");
    const name = gl && info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : "";
    software = /swiftshader|llvmpipe|softpipe|software|basic render/i.test(name);
    gl?.getExtension("WEBGL_lose_context")?.loseContext();
  }
  return software;
}
