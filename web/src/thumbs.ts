// Small 3D pictures of a stone in one orientation, for the tray: one offscreen WebGL
// renderer shared by every picture, each picture rendered once into an image (PNG data
// URL) and kept. Readable at phone size where a flat drawing of a tipped stone was not.
import * as THREE from "three";
import type { Letter, StoneInfo } from "./api";
import { COLOURS } from "./view3d";

const SIZE = 96;
let renderer: THREE.WebGLRenderer | null = null;
const cache = new Map<string, string>();
const cube = new THREE.BoxGeometry(0.94, 0.94, 0.94);
const edges = new THREE.EdgesGeometry(cube);

function shared(): THREE.WebGLRenderer | null {
  if (renderer) return renderer;
  try {
    renderer = new THREE.WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer: true });
  } catch {
    return null; // No WebGL: the caller draws the flat icon.
  }
  renderer.setPixelRatio(1);
  renderer.setSize(SIZE, SIZE, false);
  renderer.setClearColor(0x000000, 0);
  return renderer;
}

/** A picture of `stone` in `orientation`, in `letter`'s colour, seen from the front right and above; null without WebGL. */
export function stoneThumbnail(stone: StoneInfo, orientation: number, letter: Letter): string | null {
  const key = `${stone.code}|${orientation}|${letter}`;
  const known = cache.get(key);
  if (known) return known;
  const r = shared();
  if (!r) return null;
  const cells = stone.orientations[orientation] ?? stone.orientations[0];
  const scene = new THREE.Scene();
  scene.add(new THREE.HemisphereLight(0xffffff, 0x8a7f6a, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.5);
  sun.position.set(4, 9, 6);
  scene.add(sun);
  const material = new THREE.MeshLambertMaterial({ color: COLOURS[letter] });
  const lines = new THREE.LineBasicMaterial({ color: 0x1d1a16 });
  const group = new THREE.Group();
  // Game axes to three's: x = file, z = level up, y = rank away from the viewer.
  for (const [x, y, z] of cells) {
    const m = new THREE.Mesh(cube, material);
    m.position.set(x, z, -y);
    const e = new THREE.LineSegments(edges, lines);
    e.position.copy(m.position);
    group.add(m, e);
  }
  const box = new THREE.Box3().setFromObject(group);
  const centre = box.getCenter(new THREE.Vector3());
  group.position.sub(centre);
  scene.add(group);
  // An orthographic camera sized to the stone's widest extent, so every stone fills the picture alike.
  const radius = box.getSize(new THREE.Vector3()).length() / 2;
  const camera = new THREE.OrthographicCamera(-radius, radius, radius, -radius, 0.1, 50);
  camera.position.set(radius * 2.2, radius * 2.4, radius * 3.2);
  camera.lookAt(0, 0, 0);
  r.render(scene, camera);
  const url = r.domElement.toDataURL("image/png");
  material.dispose();
  lines.dispose();
  cache.set(key, url);
  return url;
}
