// A socket the server closes as it restarts (1012) reconnects within half a second and its
// delay starts over; any other drop waits the delay, which doubles up to 8 s (src/api.ts).
import { test } from "vitest";
import assert from "node:assert/strict";
import { reconnectDelay, CLOSE_RESTART } from "../src/api.ts";

test("a server's restart is answered by a prompt reconnection", () => {
  assert.equal(CLOSE_RESTART, 1012);
  assert.deepEqual(reconnectDelay(1012, 8000, () => 0), { wait: 100, next: 500 });
  const late = reconnectDelay(1012, 8000, () => 0.999);
  assert.ok(late.wait >= 100 && late.wait < 500, `${late.wait}`);
});

test("another drop backs off, doubling up to 8 s", () => {
  assert.deepEqual(reconnectDelay(1006, 500), { wait: 500, next: 1000 });
  assert.deepEqual(reconnectDelay(1000, 4000), { wait: 4000, next: 8000 });
  assert.deepEqual(reconnectDelay(1006, 8000), { wait: 8000, next: 8000 });
});
