import { defineConfig } from "vitest/config";

// The web app's unit tests (`npm run unit`): tests/*.test.{ts,mjs}, run by Vitest in Node.js
// (no browser: the browser tests are e2e/, run by node's test runner and Chromium). Vitest
// compiles the app's TypeScript as Vite does for the bundle, so a test imports src/ as it is.
export default defineConfig({
  test: {
    include: ["tests/**/*.test.{ts,mjs}"],
    environment: "node",
    // The differential test (tests/wasm.test.mjs) sets its own, longer limits.
    testTimeout: 20_000,
  },
});
