// Small DOM helpers shared by the pages.
import type { Letter, StoneInfo } from "./wire";
import { t } from "./i18n";
import { COLOURS } from "./view3d";

type Attrs = Record<string, string | number | boolean | ((e: Event) => void) | undefined>;

/** Create an element: h("button", { class: "x", onclick: f }, "text", child). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.replace(/^on/, ""), v as EventListener);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return el;
}

export const COLOUR_NAMES: Record<Letter, string> = { R: "Red", Y: "Yellow", G: "Green", B: "Blue", X: "Ruins" };

/** A colour's name in the reader's language. */
export function colourName(letter: Letter): string {
  return t(`common.colour.${letter}`);
}

export function hex(letter: Letter) {
  return `#${COLOURS[letter].toString(16).padStart(6, "0")}`;
}

export function swatch(letter: Letter) {
  return h("span", { class: `swatch swatch-${letter}`, style: `background:${hex(letter)}`, title: colourName(letter) }, letter);
}

/**
 * A small picture of a stone orientation seen from above and a little in front: each cube
 * a square, higher cubes drawn later and shifted up.
 */
export function stoneIcon(stone: StoneInfo, orientation: number, letter: Letter, size = 44): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  const cells = stone.orientations[orientation] ?? stone.orientations[0];
  const w = Math.max(...cells.map((c) => c[0])) + 1;
  const d = Math.max(...cells.map((c) => c[1])) + 1;
  const t = Math.max(...cells.map((c) => c[2])) + 1;
  const u = 10;
  const lift = 5;
  const W = w * u + 2;
  const H = d * u + (t - 1) * lift + 2;
  svg.setAttribute("viewBox", `-1 -1 ${W} ${H}`);
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("aria-hidden", "true");
  const sorted = [...cells].sort((a, b) => a[2] - b[2] || b[1] - a[1]);
  for (const [x, y, z] of sorted) {
    const r = document.createElementNS(ns, "rect");
    r.setAttribute("x", String(x * u));
    r.setAttribute("y", String((d - 1 - y) * u + (t - 1 - z) * lift));
    r.setAttribute("width", String(u - 1));
    r.setAttribute("height", String(u - 1));
    r.setAttribute("fill", hex(letter));
    r.setAttribute("stroke", "#1d1a16");
    r.setAttribute("stroke-width", "0.8");
    r.setAttribute("opacity", String(0.75 + 0.25 * (z / Math.max(t - 1, 1))));
    svg.appendChild(r);
  }
  return svg;
}

let toastTimer = 0;
/** A short message at the bottom of the screen; errors stay longer, and so may news (`ms`). */
export function toast(text: string, error = false, ms?: number) {
  let el = document.getElementById("toast");
  if (!el) {
    el = h("div", { id: "toast", role: "status", "aria-live": "polite" });
    document.body.appendChild(el);
  }
  el.textContent = text;
  el.className = error ? "show error" : "show";
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => (el!.className = ""), ms ?? (error ? 5000 : 2500));
}

let audio: AudioContext | null = null;
/** A soft knock, for a stone set down. */
export function knock() {
  try {
    audio ??= new AudioContext();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = 180;
    o.type = "triangle";
    g.gain.setValueAtTime(0.25, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.15);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.16);
  } catch {
    // No sound available: nothing to do.
  }
}

export const prefs = {
  get(key: string, fallback: boolean) {
    const v = localStorage.getItem(`rumis.pref.${key}`);
    return v === null ? fallback : v === "1";
  },
  set(key: string, on: boolean) {
    localStorage.setItem(`rumis.pref.${key}`, on ? "1" : "0");
  },
};
