/**
 * Builds the dashboard into dashboard/dist, which the API serves at `/` (api/src/http/serve-dashboard.ts).
 * JSX is Preact's automatic runtime, compiled by Vite's own transform (no framework plugin). The
 * zk-sdk web build loads its .wasm through `new URL(..., import.meta.url)`, which Vite turns into a
 * hashed asset of the build. Nothing is inlined as a data: URL or an inline script, so the page runs
 * under the strict CSP the API sends (script-src 'self' 'wasm-unsafe-eval'; style-src 'self').
 */
import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  base: "/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // Every asset is a file of its own: a data: URL script or wasm would need a looser CSP.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 4096,
  },
});
