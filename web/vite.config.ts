import { defineConfig } from "vite";

// `npm run dev` proxies the API to a `rumis serve` on :8080; `npm run build` writes dist/,
// which `rumis serve` serves.
export default defineConfig({
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1200 },
  server: {
    proxy: { "/api": { target: "http://127.0.0.1:8080", ws: true } },
  },
});
