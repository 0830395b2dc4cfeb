// Small still pictures of positions, for the lessons: one offscreen three.js renderer draws
// a board, the cubes of a position and a placement, and returns a PNG. It draws what the
// API gives (every cube of position and placement, from the core) and knows no rule.
// Each picture's cubes, read back from the meshes drawn, are kept in
// `window.__rumisLessonScenes[id]` so a test can compare them with the API's.
import * as THREE from "three";
import type { Letter, Xyz } from "../api";
import { COLOURS } from "../view3d";
import { fitCamera } from "../fit";

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

const cube = new THREE.BoxGeometry(0.96, 0.96, 0.96);
const edges = new THREE.EdgesGeometry(cube);
const outline = new THREE.EdgesGeometry(new THREE.BoxGeometry(1.06, 1.06, 1.06));

let renderer: THREE.WebGLRenderer | null = null;

export const PICTURE = { width: 360, height: 250 };

/** Draws a scene and returns it as a PNG data URL. */
export function picture(scene: Scene): string {
  const { width, height } = scene.size ?? PICTURE;
  renderer ??= new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(width, height, false);
  renderer.setClearColor(0xf4efe4);
  const root = new THREE.Scene();
  root.add(new THREE.HemisphereLight(0xffffff, 0x8a7f6a, 2.0));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(6, 14, 9);
  root.add(sun);
  const { files, ranks } = scene.board;
  const world = (x: number, y: number, z: number) => new THREE.Vector3(x + 0.5 - files / 2, z + 0.5, ranks / 2 - (y + 0.5));

  // The board: a tile per buildable cell, and the height limit as a faint frame per cell.
  const tile = new THREE.BoxGeometry(0.98, 0.12, 0.98);
  const tileMat = new THREE.MeshLambertMaterial({ color: 0xe9e1cf });
  const limitMat = new THREE.LineBasicMaterial({ color: 0x8a6a45, transparent: true, opacity: 0.35 });
  for (const c of scene.board.cells) {
    const p = world(c.x, c.y, 0);
    const m = new THREE.Mesh(tile, tileMat);
    m.position.set(p.x, -0.06, p.z);
    root.add(m);
    if (scene.limits && !scene.top) {
      const frame = new THREE.LineSegments(new THREE.EdgesGeometry(new THREE.PlaneGeometry(0.98, 0.98).rotateX(-Math.PI / 2)), limitMat);
      frame.position.set(p.x, c.limit, p.z);
      root.add(frame);
    }
  }
  const plinth = new THREE.Mesh(new THREE.BoxGeometry(files + 0.4, 0.2, ranks + 0.4), new THREE.MeshLambertMaterial({ color: 0x7b6a52 }));
  plinth.position.set(0, -0.22, 0);
  root.add(plinth);

  const lines = new THREE.LineBasicMaterial({ color: 0x1d1a16, transparent: true, opacity: 0.55 });
  const group = new THREE.Group();
  root.add(group);
  for (const s of scene.structure) {
    const mat = new THREE.MeshLambertMaterial({ color: COLOURS[s.colour] });
    for (const [x, y, z] of s.cubes) {
      const m = new THREE.Mesh(cube, mat);
      m.position.copy(world(x, y, z));
      m.userData = { kind: "structure", cube: [x, y, z], colour: s.colour };
      const e = new THREE.LineSegments(edges, lines);
      e.position.copy(m.position);
      group.add(m, e);
    }
  }
  // The placement: solid with a white outline when legal; translucent with a dark red
  // outline when the core refuses it (it is not in the structure).
  if (scene.placement) {
    const { legal } = scene.placement;
    const mat = new THREE.MeshLambertMaterial({ color: COLOURS[scene.placement.colour], transparent: !legal, opacity: legal ? 1 : 0.6 });
    const ring = new THREE.LineBasicMaterial({ color: legal ? 0xffffff : 0x9b111e });
    for (const [x, y, z] of scene.placement.cubes) {
      const m = new THREE.Mesh(cube, mat);
      m.position.copy(world(x, y, z));
      m.userData = { kind: "placement", cube: [x, y, z] };
      const e = new THREE.LineSegments(outline, ring);
      e.position.copy(m.position);
      group.add(m, e);
    }
  }
  // Everything in view: the limits when drawn, and a refused stone that would stick out.
  const cubesDrawn = [...scene.structure.flatMap((s) => s.cubes), ...(scene.placement?.cubes ?? [])];
  const tallest = Math.max(2, ...(scene.limits ? scene.board.cells.map((c) => c.limit) : []), ...cubesDrawn.map((c) => c[2] + 1));
  const aspect = width / height;
  let camera: THREE.Camera;
  if (scene.top) {
    const half = Math.max(files / aspect, ranks) / 2 + 0.7;
    const cam = new THREE.OrthographicCamera(-half * aspect, half * aspect, half, -half, 0.1, 200);
    cam.position.set(0, 40, 0);
    cam.up.set(0, 0, -1);
    cam.lookAt(0, 0, 0);
    cam.updateProjectionMatrix();
    camera = cam;
  } else {
    const cam = new THREE.PerspectiveCamera(35, aspect, 0.1, 200);
    fitCamera(cam, null, files, ranks, tallest);
    camera = cam;
  }
  renderer.render(root, camera);
  const url = renderer.domElement.toDataURL("image/png");

  // What was drawn, from the meshes themselves.
  const record: DrawnScene = { structure: [], placement: [] };
  for (const o of group.children) {
    const d = o.userData as { kind?: string; cube?: Xyz; colour?: string };
    if (d.kind === "structure") record.structure.push([...d.cube!, d.colour!]);
    else if (d.kind === "placement") record.placement.push(d.cube!);
  }
  drawn[scene.id] = record;
  for (const m of [tile, tileMat, limitMat, lines]) m.dispose();
  return url;
}
