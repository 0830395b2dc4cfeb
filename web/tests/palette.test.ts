// The cubes' colours under the three common colour-vision deficiencies: each colour is
// turned into what a dichromat sees (Machado, Oliveira and Fernandes 2009, severity 1, in
// linear sRGB), then every two colours are compared by their distance in CIELAB (ΔE 1976).
// Without a deficiency the closest two are 52.5 apart; under simulation the players'
// colours stay at least 21 apart (red and green for protanopia and deuteranopia, green and
// blue for tritanopia) and a player's colour and the ruins' at least 16.9 (green,
// deuteranopia). The bounds below fail a palette change that brings two of them closer.
import { expect, test } from "vitest";
import { COLOURS } from "../src/palette";

type Rgb = [number, number, number];
const SIMULATIONS: Record<string, number[][]> = {
  none: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);

function seen(hex: number, m: number[][]): Rgb {
  const v = [(hex >> 16) & 255, (hex >> 8) & 255, hex & 255].map((c) => linear(c / 255));
  return m.map((row) => Math.min(1, Math.max(0, row[0] * v[0] + row[1] * v[1] + row[2] * v[2]))) as Rgb;
}

function lab([r, g, b]: Rgb): Rgb {
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** The closest two of `letters` as seen through `m`, and their distance. */
function closest(letters: (keyof typeof COLOURS)[], m: number[][]): [string, number] {
  let best: [string, number] = ["", Infinity];
  for (let i = 0; i < letters.length; i++) {
    for (let j = i + 1; j < letters.length; j++) {
      const [a, b] = [lab(seen(COLOURS[letters[i]], m)), lab(seen(COLOURS[letters[j]], m))];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
      if (d < best[1]) best = [letters[i] + letters[j], d];
    }
  }
  return best;
}

test.each(Object.keys(SIMULATIONS))("the players' colours stay apart: %s", (name) => {
  const [pair, d] = closest(["R", "Y", "G", "B"], SIMULATIONS[name]);
  expect(d, `${pair} are ${d.toFixed(1)} apart`).toBeGreaterThanOrEqual(20);
});

test.each(Object.keys(SIMULATIONS))("the ruins stay apart from every colour: %s", (name) => {
  const [pair, d] = closest(["R", "Y", "G", "B", "X"], SIMULATIONS[name]);
  expect(d, `${pair} are ${d.toFixed(1)} apart`).toBeGreaterThanOrEqual(15);
});

test("the simulation is not the identity: red and green come closer for a deuteranope", () => {
  const [, plain] = closest(["R", "G"], SIMULATIONS.none);
  const [, deutan] = closest(["R", "G"], SIMULATIONS.deuteranopia);
  expect(plain).toBeGreaterThan(100);
  expect(deutan).toBeLessThan(30);
});
