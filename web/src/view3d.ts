// The structure in 3D: board, cubes, ghost stone, highlights. It draws what it is told; it
// knows no rule. Game coordinates: x = file (0 = a), y = rank (0 = rank 1), z = level.
import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import type { Xyz } from "./api";
import type { Letter } from "./wire";
import { COLOURS } from "./palette";
import { coordinateLabels, labelTexture, limitOutline, softwareRenderer, tileTexture } from "./view3d-parts";

export { COLOURS };

export interface BoardCell {
  x: number;
  y: number;
  limit: number;
  printed?: number | null;
}

export interface ColumnCubes {
  x: number;
  y: number;
  cubes: Letter[];
}

export const cubeGeometry = new THREE.BoxGeometry(0.96, 0.96, 0.96);
export const edgeGeometry = new THREE.EdgesGeometry(cubeGeometry);
export const outlineGeometry = new THREE.EdgesGeometry(new THREE.BoxGeometry(1.04, 1.04, 1.04));
const ghostMaterial = new THREE.MeshLambertMaterial({ color: 0xf4f7fb, emissive: 0x8fa3b8, transparent: true, opacity: 0.42, depthWrite: false });

export class Structure3D {
  readonly renderer: THREE.WebGLRenderer;
  readonly scene = new THREE.Scene();
  readonly camera: THREE.PerspectiveCamera;
  readonly topCamera: THREE.OrthographicCamera;
  readonly controls: OrbitControls;
  private board = new THREE.Group();
  protected cubes = new THREE.Group();
  private ghost = new THREE.Group();
  private marks = new THREE.Group();
  private volume = new THREE.Group();
  /** The height-limit outlines (they can be hidden). */
  private limits = new THREE.Group();

  private pickables: THREE.Object3D[] = [];
  protected files = 1;
  protected ranks = 1;
  protected hmax = 4;
  protected heights = new Map<string, number>();
  private buildable = new Set<string>();
  protected labels = false;
  protected materials = new Map<string, THREE.Material>();
  private top = false;
  private spin = 0;
  /** Whether the picture must be drawn again at the next frame. */
  private stale = true;
  /** The animation frame asked for, 0 when none: a still picture asks for none. */
  private pending = 0;
  private disposed = false;
  private raycaster = new THREE.Raycaster();

  constructor(private container: HTMLElement) {
    // Multisampling costs a software renderer (no GPU: SwiftShader, llvmpipe) about a fifth
    // of its time; there the edges stay jagged and the picture quick to turn.
    this.renderer = new THREE.WebGLRenderer({ antialias: !softwareRenderer(), preserveDrawingBuffer: true });
    // A software renderer shades every pixel on the CPU: there the picture is drawn at
    // three quarters of the page's resolution (a little over half the pixels to shade; a
    // little softer), so a drop or a turn stays smooth. With a GPU, up to two device
    // pixels per CSS pixel.
    this.renderer.setPixelRatio(softwareRenderer() ? 0.75 : Math.min(window.devicePixelRatio, 2));
    this.renderer.setClearColor(0xf4efe4);
    container.appendChild(this.renderer.domElement);
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.1, 200);
    this.topCamera = new THREE.OrthographicCamera(-5, 5, 5, -5, 0.1, 200);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.enableDamping = false;
    this.controls.maxPolarAngle = Math.PI * 0.49;
    this.controls.minDistance = 3;
    this.controls.maxDistance = 60;
    this.controls.addEventListener("change", () => (this.dirty = true));
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x8a7f6a, 2.0));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.set(6, 14, 9);
    this.scene.add(sun);
    this.scene.add(this.board, this.cubes, this.ghost, this.marks, this.volume, this.limits);
    new ResizeObserver(() => this.resize()).observe(container);
    this.resize();
  }

  /**
   * Whether the picture must be drawn again. Setting it asks for a frame: frames are drawn
   * only while something changes (a spin, a drop, a turn), so a still picture costs no
   * time at all (an idle page used to run 60 empty frames a second).
   */
  protected get dirty() {
    return this.stale;
  }

  protected set dirty(on: boolean) {
    this.stale = on;
    if (on) this.wake();
  }

  private wake() {
    if (this.pending === 0 && !this.disposed) this.pending = requestAnimationFrame(() => this.draw());
  }

  private draw() {
    this.pending = 0;
    // Each step that moves something sets `dirty`, which asks for the next frame.
    if (this.spin !== 0) this.rotateBy(this.spin);
    this.tick(performance.now());
    if (this.stale) {
      this.stale = false;
      this.renderer.render(this.scene, this.top ? this.topCamera : this.camera);
    }
  }

  /** Called before every frame that is drawn; a subclass animates here (and sets `dirty`). */
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  protected tick(_now: number) {}

  get canvas() {
    return this.renderer.domElement;
  }

  /** Pixels on the right of the canvas covered by a panel: the picture is centred in the rest. */
  private inset = 0;

  setInsetRight(px: number) {
    this.inset = px;
    this.resize();
  }

  private resize() {
    const w = Math.max(this.container.clientWidth, 10);
    const h = Math.max(this.container.clientHeight, 10);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    const inset = Math.min(this.inset, w / 2);
    // Shift the picture left by half the covered width (the structure centred in the free part).
    if (inset > 0) this.camera.setViewOffset(w, h, inset / 2, 0, w, h);
    else this.camera.clearViewOffset();
    this.camera.updateProjectionMatrix();
    this.fitTop();
    this.dirty = true;
  }

  private fitTop() {
    const w = Math.max(this.container.clientWidth, 10);
    const h = Math.max(this.container.clientHeight, 10);
    const half = Math.max(this.files, this.ranks) / 2 + 0.8;
    const inset = Math.min(this.inset, w / 2);
    const free = w - inset;
    const a = free / h;
    const [hw, hh] = a >= 1 ? [half * a, half] : [half, half / a];
    // The board fills the free part; the covered part extends the view to the right.
    Object.assign(this.topCamera, { left: -hw, right: hw + (2 * hw * inset) / free, top: hh, bottom: -hh });
    this.topCamera.position.set(0, 40, 0);
    this.topCamera.up.set(0, 0, -1);
    this.topCamera.lookAt(0, 0, 0);
    this.topCamera.updateProjectionMatrix();
  }

  /** World position of the centre of the cube at (x, y, z). */
  world(x: number, y: number, z: number) {
    return new THREE.Vector3(x + 0.5 - this.files / 2, z + 0.5, this.ranks / 2 - (y + 0.5));
  }

  protected material(letter: Letter, ghost = false): THREE.Material {
    const key = `${letter}${ghost ? "g" : ""}${this.labels ? "l" : ""}`;
    let m = this.materials.get(key);
    if (!m) {
      m = new THREE.MeshLambertMaterial({
        color: COLOURS[letter],
        map: this.labels ? labelTexture(letter) : null,
        transparent: ghost,
        opacity: ghost ? 0.55 : 1,
        depthWrite: !ghost,
      });
      this.materials.set(key, m);
    }
    return m;
  }

  setLabels(on: boolean) {
    this.labels = on;
    this.dirty = true;
  }

  setBoard(files: number, ranks: number, cells: BoardCell[], hmax: number) {
    this.files = files;
    this.ranks = ranks;
    this.hmax = hmax;
    this.board.clear();
    this.pickables = [];
    this.buildable.clear();
    const tileGeo = new THREE.BoxGeometry(0.98, 0.12, 0.98);
    const side = new THREE.MeshLambertMaterial({ color: 0xc9bd9f });
    for (const c of cells) {
      this.buildable.add(`${c.x},${c.y}`);
      const label = c.printed != null ? String(c.printed) : "";
      const top = new THREE.MeshLambertMaterial({ map: tileTexture(label) });
      const tile = new THREE.Mesh(tileGeo, [side, side, top, side, side, side]);
      const p = this.world(c.x, c.y, 0);
      tile.position.set(p.x, -0.06, p.z);
      tile.userData = { x: c.x, y: c.y, z: -1 };
      this.board.add(tile);
      this.pickables.push(tile);
    }
    this.limits.clear();
    this.limits.add(limitOutline(cells, (x, y) => this.world(x, y, 0)));

    // A plinth under the whole grid, so the outline reads as one board.
    const plinth = new THREE.Mesh(
      new THREE.BoxGeometry(files + 0.4, 0.2, ranks + 0.4),
      new THREE.MeshLambertMaterial({ color: 0x7b6a52 }),
    );
    plinth.position.set(0, -0.22, 0);
    this.board.add(plinth);
    for (const label of coordinateLabels(files, ranks, (x, y) => this.world(x, y, 0))) this.board.add(label);
    this.resetView();
  }

  resetView() {
    this.frame(this.hmax, false);
  }

  /** The highest column now. */
  tallest() {
    let most = 0;
    for (const v of this.heights.values()) most = Math.max(most, v);
    return most;
  }

  /**
   * Put the camera where the board and `levels` levels above it are all in view, whatever
   * the canvas' shape (a phone's narrow canvas limits the width, not the height); from the
   * same side as now when `keepSide`, else from the front right.
   */
  frame(levels: number, keepSide = true) {
    const t = new THREE.Vector3(0, Math.min(levels, this.hmax) * 0.35, 0);
    const dir = keepSide ? this.camera.position.clone().sub(this.controls.target).normalize() : new THREE.Vector3(0.3, 0.62, 0.78).normalize();
    // A sphere around the board, its labels and the levels asked for.
    const r = 0.5 * Math.hypot(this.files + 1.6, this.ranks + 1.6, Math.min(levels, this.hmax) + 0.5);
    const halfV = THREE.MathUtils.degToRad(this.camera.fov / 2);
    const free = Math.max(this.container.clientWidth - Math.min(this.inset, this.container.clientWidth / 2), 10);
    const halfH = Math.atan(Math.tan(halfV) * (free / Math.max(this.container.clientHeight, 10)));
    const d = Math.min(Math.max(r / Math.sin(Math.min(halfV, halfH)), this.controls.minDistance), this.controls.maxDistance);
    this.controls.target.copy(t);
    this.camera.position.copy(t).add(dir.multiplyScalar(d));
    this.controls.update();
    this.fitTop();
    this.dirty = true;
  }

  /** Show or hide the outlines of the height limits. */
  setLimitsShown(on: boolean) {
    this.limits.visible = on;
    this.dirty = true;
  }

  /**
   * The space the game may fill, drawn as sandstone blocks up to each cell's height limit
   * (for previews of a board: its printed heights and frame at a glance).
   */
  setVolume(cells: BoardCell[] | null) {
    this.volume.clear();
    if (cells) {
      const fill = new THREE.MeshLambertMaterial({ color: 0xe3cfa4 });
      const lines = new THREE.LineBasicMaterial({ color: 0x8a6a45, transparent: true, opacity: 0.6 });
      for (const c of cells) {
        const geo = new THREE.BoxGeometry(0.98, c.limit, 0.98);
        const m = new THREE.Mesh(geo, fill);
        const p = this.world(c.x, c.y, 0);
        m.position.set(p.x, c.limit / 2, p.z);
        const e = new THREE.LineSegments(new THREE.EdgesGeometry(geo), lines);
        e.position.copy(m.position);
        this.volume.add(m, e);
      }
    }
    this.dirty = true;
  }

  /** The cubes of the structure; those in `hidden` are left out (a stone about to drop in). */
  setColumns(columns: ColumnCubes[], hidden: Xyz[] = []) {
    const skip = new Set(hidden.map(([x, y, z]) => `${x},${y},${z}`));
    this.cubes.clear();
    this.heights.clear();
    const edges = new THREE.LineBasicMaterial({ color: 0x1d1a16, transparent: true, opacity: 0.55 });
    for (const col of columns) {
      this.heights.set(`${col.x},${col.y}`, col.cubes.length);
      col.cubes.forEach((letter, z) => {
        if (skip.has(`${col.x},${col.y},${z}`)) return;
        const m = new THREE.Mesh(cubeGeometry, this.material(letter));
        m.position.copy(this.world(col.x, col.y, z));
        m.userData = { x: col.x, y: col.y, z, letter };
        const e = new THREE.LineSegments(edgeGeometry, edges);
        e.position.copy(m.position);
        this.cubes.add(m, e);
      });
    }
    this.dirty = true;
  }

  height(x: number, y: number) {
    return this.heights.get(`${x},${y}`) ?? 0;
  }

  /** The cubes drawn, each `[x, y, z, letter]` (for the tests: what the board shows). */
  drawnCubes(): [number, number, number, string][] {
    return this.cubes.children.filter((o) => (o as THREE.Mesh).isMesh).map((o) => [o.userData.x, o.userData.y, o.userData.z, o.userData.letter]);
  }

  isBuildable(x: number, y: number) {
    return this.buildable.has(`${x},${y}`);
  }

  /** A stone not yet placed: translucent, in its colour; `hint` draws it as a suggestion. */
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  setGhost(cubes: Xyz[] | null, _letter: Letter = "X", hint = false) {
    // Never the mover's colour: a pale glass stone with a dark (a hint: violet) outline, so
    // it cannot be taken for a stone already placed.
    this.ghost.clear();
    if (cubes) {
      const lines = new THREE.LineBasicMaterial({ color: hint ? 0x7a2fd0 : 0x1b1b1b, depthTest: false, transparent: true });
      const inner = new THREE.LineBasicMaterial({ color: 0xffffff, depthTest: false, transparent: true, opacity: 0.9 });
      for (const [x, y, z] of cubes) {
        const m = new THREE.Mesh(cubeGeometry, ghostMaterial);
        m.position.copy(this.world(x, y, z));
        m.renderOrder = 5;
        const e = new THREE.LineSegments(outlineGeometry, lines);
        const i = new THREE.LineSegments(edgeGeometry, inner);
        e.position.copy(m.position);
        i.position.copy(m.position);
        e.renderOrder = i.renderOrder = 6;
        this.ghost.add(m, e, i);
      }
    }
    this.dirty = true;
  }

  /** The ghost's fill colour (for the tests: never a colour of the players). */
  ghostColour(): string | null {
    const m = this.ghost.children.find((o) => (o as THREE.Mesh).isMesh) as THREE.Mesh | undefined;
    return m ? `#${(m.material as THREE.MeshLambertMaterial).color.getHexString()}` : null;
  }

  /** The fill colour of a placed stone of this colour. */
  stoneColour(letter: Letter): string {
    return `#${(this.material(letter) as THREE.MeshLambertMaterial).color.getHexString()}`;
  }

  /**
   * Marks on the structure: `cells` get a flat tile at their column's top (where the chosen
   * stone can go); `last` outlines the cubes of the last move.
   */
  setMarks(cells: [number, number][], last: Xyz[] | null, cursor: [number, number] | null = null) {
    this.marks.clear();
    const geo = new THREE.PlaneGeometry(0.9, 0.9);
    geo.rotateX(-Math.PI / 2);
    const mat = new THREE.MeshBasicMaterial({ color: 0x35c46a, transparent: true, opacity: 0.45, depthWrite: false });
    for (const [x, y] of cells) {
      const p = this.world(x, y, this.height(x, y));
      const m = new THREE.Mesh(geo, mat);
      m.position.set(p.x, p.y - 0.47, p.z);
      this.marks.add(m);
    }
    if (cursor) {
      const [x, y] = cursor;
      const p = this.world(x, y, this.height(x, y));
      const ring = new THREE.Mesh(
        new THREE.RingGeometry(0.3, 0.44, 24).rotateX(-Math.PI / 2),
        new THREE.MeshBasicMaterial({ color: 0x222222, transparent: true, opacity: 0.7, depthWrite: false }),
      );
      ring.position.set(p.x, p.y - 0.46, p.z);
      this.marks.add(ring);
    }
    if (last) {
      const lines = new THREE.LineBasicMaterial({ color: 0xffffff, linewidth: 2 });
      for (const [x, y, z] of last) {
        const e = new THREE.LineSegments(outlineGeometry, lines);
        e.position.copy(this.world(x, y, z));
        this.marks.add(e);
      }
    }
    this.dirty = true;
  }

  /** The column under a point of the canvas, or null off the board. */
  pick(clientX: number, clientY: number): [number, number] | null {
    const r = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.top ? this.topCamera : this.camera);
    const targets = [...this.pickables, ...this.cubes.children.filter((o) => (o as THREE.Mesh).isMesh)];
    const hit = this.raycaster.intersectObjects(targets, false)[0];
    if (!hit) return null;
    const { x, y } = hit.object.userData as { x: number; y: number };
    const n = hit.face?.normal;
    if (n && Math.abs(n.y) < 0.5) {
      // A side of a cube: the column beside it, where a stone would go.
      const nx = x + Math.round(n.x);
      const ny = y - Math.round(n.z);
      if (this.isBuildable(nx, ny)) return [nx, ny];
    }
    return [x, y];
  }

  /**
   * Whether a point of the canvas is on the ghost stone: a touch screen has no hover, so a
   * tap first shows the ghost and a tap on it places it (placer.ts).
   */
  hitsGhost(clientX: number, clientY: number): boolean {
    const r = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.top ? this.topCamera : this.camera);
    const meshes = this.ghost.children.filter((o) => (o as THREE.Mesh).isMesh);
    return meshes.length > 0 && this.raycaster.intersectObjects(meshes, false).length > 0;
  }

  /** Where the centre of the cube (x, y, z) appears, in page pixels (for tests and labels). */
  screenPoint(x: number, y: number, z: number): [number, number] {
    const p = this.world(x, y, z).project(this.top ? this.topCamera : this.camera);
    const r = this.canvas.getBoundingClientRect();
    return [r.left + ((p.x + 1) / 2) * r.width, r.top + ((1 - p.y) / 2) * r.height];
  }

  /** Turn the structure like the turntable, by an angle in radians. */
  rotateBy(angle: number) {
    const t = this.controls.target;
    const off = this.camera.position.clone().sub(t);
    off.applyAxisAngle(new THREE.Vector3(0, 1, 0), angle);
    this.camera.position.copy(t).add(off);
    this.camera.lookAt(t);
    this.controls.update();
    this.dirty = true;
  }

  setSpin(speed: number) {
    this.spin = speed;
    if (speed !== 0) this.wake();
  }

  zoom(factor: number) {
    if (this.top) {
      this.topCamera.zoom = Math.min(Math.max(this.topCamera.zoom / factor, 0.4), 4);
      this.topCamera.updateProjectionMatrix();
    } else {
      const t = this.controls.target;
      const off = this.camera.position.clone().sub(t).multiplyScalar(factor);
      const len = Math.min(Math.max(off.length(), this.controls.minDistance), this.controls.maxDistance);
      this.camera.position.copy(t).add(off.setLength(len));
      this.controls.update();
    }
    this.dirty = true;
  }

  setTopView(on: boolean) {
    this.top = on;
    this.controls.enabled = !on;
    this.dirty = true;
  }

  get topView() {
    return this.top;
  }

  /** The picture now, as a PNG data URL. */
  dispose() {
    this.disposed = true;
    cancelAnimationFrame(this.pending);
    this.controls.dispose();
    this.renderer.dispose();
    this.canvas.remove();
  }
}
