// Shades of one colour for telling apart stones of the same colour (the solitaire's
// 3 × 3 × 3 is built from one colour's eleven stones). Works on a drawn Structure3D by
// giving the cube meshes of each stone (found by their cell, `userData` {x, y, z}) a
// material of their own, so the view needs no knowledge of stones.
import * as THREE from "three";
import type { Xyz } from "./api";
import type { Structure3D } from "./view3d";

/** `n` clearly different reds: hue, lightness and saturation stepped apart. */
export function shades(n: number): THREE.Color[] {
  const out: THREE.Color[] = [];
  for (let i = 0; i < n; i++) {
    const hue = (350 + ((i * 37) % 50)) % 360;
    const light = 0.3 + ((i * 5) % 9) * 0.055;
    out.push(new THREE.Color().setHSL(hue / 360, 0.55 + (i % 3) * 0.15, light));
  }
  return out;
}

export function tintStones(view: Structure3D, stones: Xyz[][]) {
  const colours = shades(stones.length);
  const stoneOf = new Map<string, number>();
  stones.forEach((cubes, i) => cubes.forEach(([x, y, z]) => stoneOf.set(`${x},${y},${z}`, i)));
  const materials = colours.map((c) => new THREE.MeshLambertMaterial({ color: c }));
  // What each stone's cubes were given, for the browser tests: stone index -> colours used.
  const used: Record<number, Set<string>> = {};
  view.scene.traverse((o) => {
    const m = o as THREE.Mesh;
    const d = m.userData as { x?: number; y?: number; z?: number };
    if (!m.isMesh || d.z === undefined || d.z < 0) return;
    const i = stoneOf.get(`${d.x},${d.y},${d.z}`);
    if (i === undefined) return;
    m.material = materials[i];
    (used[i] ??= new Set()).add(colours[i].getHexString());
  });
  (window as unknown as { __rumisShades: string[][] }).__rumisShades = stones.map((_, i) => [...(used[i] ?? [])]);
}
