// Framing a box in a perspective camera: the board's whole volume (files × ranks, `height`
// levels) in view from a raised three-quarter angle, with a margin. Used for pictures made
// once (previews, lessons), where nobody can zoom out to see what is cut off.
import * as THREE from "three";

interface Orbit {
  target: THREE.Vector3;
  update(): unknown;
}

/** The eight corners of the box the camera must show (world coordinates of Structure3D). */
function corners(files: number, ranks: number, height: number): THREE.Vector3[] {
  const out: THREE.Vector3[] = [];
  const [hx, hz] = [files / 2 + 0.3, ranks / 2 + 0.3];
  for (const x of [-hx, hx]) for (const z of [-hz, hz]) for (const y of [-0.3, height + 0.1]) out.push(new THREE.Vector3(x, y, z));
  return out;
}

/**
 * Puts `camera` on the direction (`from`, relative to the box's centre) at the distance
 * where every corner of the box projects inside `margin` of the picture's edges.
 */
export function fitCamera(
  camera: THREE.PerspectiveCamera,
  controls: Orbit | null,
  files: number,
  ranks: number,
  height: number,
  from = new THREE.Vector3(0.35, 0.75, 0.9),
  margin = 0.94,
) {
  const target = new THREE.Vector3(0, height / 2, 0);
  const dir = from.clone().normalize();
  const pts = corners(files, ranks, height);
  // Start from the bounding sphere (always fits), then close in: projected size shrinks
  // about as 1 / distance, so a few rounds settle it.
  let d = pts[0].distanceTo(target) / Math.sin(((camera.fov / 2) * Math.PI) / 180) + 1;
  for (let i = 0; i < 6; i++) {
    camera.position.copy(target).addScaledVector(dir, d);
    camera.lookAt(target);
    camera.updateMatrixWorld();
    const extent = Math.max(...pts.map((p) => p.clone().project(camera)).map((p) => Math.max(Math.abs(p.x), Math.abs(p.y))));
    d *= extent / margin;
  }
  camera.position.copy(target).addScaledVector(dir, d);
  camera.lookAt(target);
  if (controls) {
    controls.target.copy(target);
    controls.update();
  }
  camera.updateMatrixWorld();
}
