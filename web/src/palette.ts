// The cubes' colours, one per letter: the players' four and the ruins'. Chosen to stay apart
// for the three common colour-vision deficiencies (web/tests/palette.test.ts simulates them);
// the game page's "labels" setting puts each cube's letter on it as well.
import type { Letter } from "./wire";

export const COLOURS: Record<Letter, number> = {
  R: 0xd83a34,
  Y: 0xf2c230,
  G: 0x2e9e57,
  B: 0x2f6fd6,
  X: 0x8c8478,
};
