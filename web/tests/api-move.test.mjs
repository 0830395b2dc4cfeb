// api.move sends a move until it is acknowledged: after a network error or a 5xx the same
// move goes again (the server answers a move it already accepted with its acknowledgement),
// and a refusal (4xx) is thrown at once. src/api.ts runs against a stand-in fetch.
import { afterEach, test, vi } from "vitest";
import assert from "node:assert/strict";
import { api, ApiError } from "../src/api.ts";

// The waits between tries (250 ms, then 500 ms) pass on Vitest's fake clock.
afterEach(() => vi.useRealTimers());

const json = (status, body) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

test("a move is sent again after a network error and a busy server, then acknowledged", async () => {
  const sent = [];
  const answers = [
    () => {
      throw new TypeError("Failed to fetch");
    },
    () => json(503, { error: "busy", reason: "the database stayed busy" }),
    () => json(200, { number: 1, move_number: 2 }),
  ];
  globalThis.fetch = async (url, init) => {
    sent.push({ url, body: init.body, auth: init.headers.Authorization });
    return answers[sent.length - 1]();
  };
  vi.useFakeTimers();
  const sending = api.move("0123456789abcdef", "tok", "L4@a1,a2,a3,b1", 1);
  await vi.advanceTimersByTimeAsync(249);
  assert.equal(sent.length, 1);
  await vi.advanceTimersByTimeAsync(1 + 500);
  const ack = await sending;
  assert.deepEqual(ack, { number: 1, move_number: 2 });
  assert.equal(sent.length, 3);
  for (const s of sent) {
    assert.equal(s.url, "/api/v1/games/0123456789abcdef/moves");
    assert.deepEqual(JSON.parse(s.body), { placement: "L4@a1,a2,a3,b1", expected_move_number: 1 });
    assert.equal(s.auth, "Bearer tok");
  }
});

test("a refused move is not sent again", async () => {
  let calls = 0;
  globalThis.fetch = async () => {
    calls++;
    return json(409, { error: "stale_move_number", reason: "the next move is number 3, not 1", move_number: 3 });
  };
  await assert.rejects(api.move("0123456789abcdef", "tok", "L4@a1,a2,a3,b1", 1), (e) => e instanceof ApiError && e.code === "stale_move_number");
  assert.equal(calls, 1);
});
