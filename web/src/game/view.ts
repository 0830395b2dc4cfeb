// The game page's structure: the 3D view plus what following and placing need — level
// numbers beside the structure, the last round's stones marked with their move numbers,
// every legal place of the chosen stone, a stone that drops into place, a highlighted move,
// and a camera that turns to where the chosen stone can go. It draws what it is told.
import * as THREE from "three";
import type { Xyz } from "../api";
import type { Letter } from "../wire";
import { BoardCell, COLOURS, Structure3D, cubeGeometry, outlineGeometry } from "../view3d";
import { textSprite } from "../view3d-parts";

export interface RecentMove {
  number: number;
  colour: Letter;
  cubes: Xyz[];
}

/** A legal place: the cube the pointer aims at (the anchor) and all its cubes. */
export interface PlaceMark {
  anchor: Xyz;
  current: boolean;
}

const HEIGHT = 2.5; // levels a stone falls from

export class GameView extends Structure3D {
  private levelMarks = new THREE.Group();
  private recent = new THREE.Group();
  private places = new THREE.Group();
  private highlight = new THREE.Group();
  private falling = new THREE.Group();
  private fall: { start: number; ms: number; done: () => void } | null = null;
  private turning: { start: number; ms: number; angle: number; done: number } | null = null;
  private framed = 0;

  constructor(container: HTMLElement) {
    super(container);
    this.scene.add(this.levelMarks, this.recent, this.places, this.highlight, this.falling);
  }

  override setBoard(files: number, ranks: number, cells: BoardCell[], hmax: number) {
    super.setBoard(files, ranks, cells, hmax);
    this.addLevelMarks(cells);
  }

  /**
   * The level numbers at the front right corner, and each height limit's value on its outline.
   * Not at the front left: there they stood beside the rank numbers, and a newcomer read
   * "4 4 3 3 2 2 1 1" down the board's left edge.
   */
  private addLevelMarks(cells: BoardCell[]) {
    this.levelMarks.clear();
    const x = this.files / 2 + 0.75;
    const z = this.ranks / 2 + 0.75;
    const pts: number[] = [x, 0, z, x, this.hmax, z];
    for (let k = 1; k <= this.hmax; k++) {
      const s = textSprite(String(k), 0.36);
      s.position.set(x + 0.25, k - 0.5, z);
      s.userData = { level: k };
      this.levelMarks.add(s);
      pts.push(x, k, z, x - 0.2, k, z);
    }
    const g = new THREE.BufferGeometry();
    g.setAttribute("position", new THREE.Float32BufferAttribute(pts, 3));
    this.levelMarks.add(new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color: 0x6f6452 })));
    // One label per height limit, above the cell of that limit nearest the front right.
    const byLimit = new Map<number, BoardCell>();
    for (const c of cells) {
      const best = byLimit.get(c.limit);
      if (!best || c.x - c.y > best.x - best.y) byLimit.set(c.limit, c);
    }
    for (const [limit, c] of byLimit) {
      const s = textSprite(`≤${limit}`, 0.3, "#6f6452", "rgba(255,250,240,0.8)");
      const p = this.world(c.x, c.y, 0);
      s.position.set(p.x + 0.3, limit + 0.15, p.z + 0.3);
      s.userData = { limitLabel: limit };
      this.levelMarks.add(s);
    }
    this.framed = 0;
  }

  /** Page points of the level numbers and of the rank numbers, in the 3D view (for the tests). */
  numberPoints(): { levels: [number, number][]; ranks: [number, number][] } {
    const r = this.canvas.getBoundingClientRect();
    const page = (o: THREE.Object3D): [number, number] => {
      const p = o.getWorldPosition(new THREE.Vector3()).project(this.camera);
      return [r.left + ((p.x + 1) / 2) * r.width, r.top + ((1 - p.y) / 2) * r.height];
    };
    const levels: [number, number][] = [];
    const ranks: [number, number][] = [];
    this.scene.traverse((o) => {
      if (o.userData.level !== undefined) levels.push(page(o));
      else if (/^\d+$/.test(o.userData.coordinate ?? "")) ranks.push(page(o));
    });
    return { levels, ranks };
  }

  override setTopView(on: boolean) {
    super.setTopView(on);
    // Seen from above, level numbers say nothing.
    this.levelMarks.visible = !on;
  }

  setLimitsShown(on: boolean) {
    super.setLimitsShown(on);
    for (const o of this.levelMarks.children) if (o.userData.limitLabel !== undefined) o.visible = on;
  }

  /** Frame the structure when it has grown past what the camera was set for. */
  frameGrowth() {
    const want = Math.min(this.tallest() + 2, this.hmax);
    if (want > this.framed) {
      this.frame(want, this.framed > 0);
      this.framed = want;
    }
  }

  override resetView() {
    const want = Math.min(this.tallest() + 2, this.hmax);
    this.frame(want, false);
    this.framed = want;
  }

  /** The stones of the last round: outlined in their colour, their move number above. */
  setRecent(moves: RecentMove[]) {
    this.recent.clear();
    for (const m of moves) {
      const colour = new THREE.Color(COLOURS[m.colour]).multiplyScalar(0.55);
      const lines = new THREE.LineBasicMaterial({ color: colour });
      let top = m.cubes[0];
      for (const c of m.cubes) {
        if (c[2] > top[2]) top = c;
        const e = new THREE.LineSegments(outlineGeometry, lines);
        e.position.copy(this.world(c[0], c[1], c[2]));
        this.recent.add(e);
      }
      const s = textSprite(String(m.number), 0.42, "#ffffff", `#${colour.getHexString()}`);
      s.position.copy(this.world(top[0], top[1], top[2])).add(new THREE.Vector3(0, 0.75, 0));
      s.renderOrder = 25; // over the height limits' labels
      this.recent.add(s);
    }
    this.dirty = true;
  }

  /** A move picked in the move list: its cubes glow through everything. */
  setHighlight(cubes: Xyz[] | null) {
    this.highlight.clear();
    if (cubes) {
      const fill = new THREE.MeshBasicMaterial({ color: 0xffe14d, transparent: true, opacity: 0.45, depthTest: false, depthWrite: false });
      const lines = new THREE.LineBasicMaterial({ color: 0x7a5a00, depthTest: false });
      for (const [x, y, z] of cubes) {
        const m = new THREE.Mesh(cubeGeometry, fill);
        m.position.copy(this.world(x, y, z));
        m.scale.setScalar(1.06);
        m.renderOrder = 30;
        const e = new THREE.LineSegments(outlineGeometry, lines);
        e.position.copy(m.position);
        e.renderOrder = 31;
        this.highlight.add(m, e);
      }
    }
    this.dirty = true;
  }

  /** How many cubes are highlighted (for the tests). */
  highlightCount() {
    return this.highlight.children.filter((o) => (o as THREE.Mesh).isMesh).length;
  }

  /**
   * Every legal place of the chosen stone and orientation: a disc where its anchor cube
   * would rest, drawn over everything (never hidden by stones or the ghost).
   */
  setPlaces(places: PlaceMark[]) {
    this.places.clear();
    const disc = new THREE.CircleGeometry(0.2, 20).rotateX(-Math.PI / 2);
    const ring = new THREE.RingGeometry(0.2, 0.28, 20).rotateX(-Math.PI / 2);
    const on = { depthTest: false, depthWrite: false, transparent: true };
    const green = new THREE.MeshBasicMaterial({ color: 0x1f9d55, opacity: 0.9, ...on });
    const dark = new THREE.MeshBasicMaterial({ color: 0x111111, opacity: 0.95, ...on });
    const white = new THREE.MeshBasicMaterial({ color: 0xffffff, opacity: 0.9, ...on });
    for (const p of places) {
      const w = this.world(p.anchor[0], p.anchor[1], p.anchor[2]);
      const d = new THREE.Mesh(disc, p.current ? dark : green);
      d.position.set(w.x, w.y - 0.48, w.z);
      d.userData = { place: true };
      d.renderOrder = 41;
      const r = new THREE.Mesh(ring, white);
      r.position.copy(d.position);
      r.renderOrder = 40;
      this.places.add(d, r);
    }
    this.dirty = true;
  }

  /** How many places are marked (for the tests). */
  placeCount() {
    return this.places.children.filter((o) => o.userData.place).length;
  }

  /** The anchors of the marked places (for the tests). */
  placeAnchors(): Xyz[] {
    return this.places.children
      .filter((o) => o.userData.place)
      .map((o) => {
        const p = o.position;
        return [Math.round(p.x - 0.5 + this.files / 2), Math.round(this.ranks / 2 - 0.5 - p.z), Math.round(p.y + 0.48 - 0.5)] as Xyz;
      });
  }

  /** Drop a stone into place over `ms`; resolves when it has landed (or `land()` was called). */
  drop(cubes: Xyz[], letter: Letter, ms: number): Promise<void> {
    this.land();
    for (const [x, y, z] of cubes) {
      const m = new THREE.Mesh(cubeGeometry, this.material(letter));
      m.position.copy(this.world(x, y, z));
      this.falling.add(m);
    }
    this.falling.position.y = HEIGHT;
    this.dirty = true;
    return new Promise((done) => (this.fall = { start: performance.now(), ms, done }));
  }

  /** End the drop now. */
  land() {
    const f = this.fall;
    this.fall = null;
    this.falling.clear();
    this.falling.position.y = 0;
    this.dirty = true;
    f?.done();
  }

  get dropping() {
    return this.fall !== null;
  }

  protected override tick(now: number) {
    const f = this.fall;
    if (f) {
      const t = Math.min((now - f.start) / f.ms, 1);
      this.falling.position.y = HEIGHT * (1 - t * t); // falls faster and faster
      this.dirty = true;
      if (t >= 1) this.land();
    }
    const turn = this.turning;
    if (turn) {
      const t = Math.min((now - turn.start) / turn.ms, 1);
      const want = turn.angle * (1 - (1 - t) * (1 - t));
      this.rotateBy(want - turn.done);
      turn.done = want;
      if (t >= 1) {
        this.turning = null;
        document.body.dataset.turning = "";
      }
    }
  }

  /**
   * Turn the camera (about the vertical, in steps of 45°) to the side from which most of
   * these cubes are seen without other stones in front; stays when no side sees more.
   */
  turnToSee(points: Xyz[]) {
    if (this.topView || points.length === 0) return;
    const target = this.controls.target;
    const offset = this.camera.position.clone().sub(target);
    const solids = this.cubes.children.filter((o) => (o as THREE.Mesh).isMesh);
    const ray = new THREE.Raycaster();
    const seen = (angle: number) => {
      const eye = offset.clone().applyAxisAngle(new THREE.Vector3(0, 1, 0), angle).add(target);
      let n = 0;
      for (const [x, y, z] of points) {
        const p = this.world(x, y, z);
        p.y -= 0.45; // where the place's disc is drawn: the bottom of the anchor cube
        const dir = p.clone().sub(eye);
        const dist = dir.length();
        ray.set(eye, dir.normalize());
        ray.far = dist - 0.05;
        if (ray.intersectObjects(solids, false).length === 0) n++;
      }
      return n;
    };
    let best = 0;
    let bestSeen = seen(0);
    for (const a of [1, -1, 2, -2, 3, -3, 4]) {
      const n = seen((a * Math.PI) / 4);
      if (n > bestSeen) {
        bestSeen = n;
        best = (a * Math.PI) / 4;
      }
    }
    if (best !== 0) {
      this.turning = { start: performance.now(), ms: 450, angle: best, done: 0 };
      document.body.dataset.turning = "1";
      this.dirty = true; // the first frame of the turn
    }
  }
}
