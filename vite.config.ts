import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  plugins: [
    tailwindcss(),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        v3_routeConfig: true,
      },
    }),
  ],
  build: {
    sourcemap: false,
    // The browser bundle is budgeted (scripts/check-client-build.mjs): terser's extra passes
    // save ~4 KB gzip over esbuild on React + Remix. The server bundle needs no minifying.
    minify: isSsrBuild ? false : "terser",
    terserOptions: { compress: { passes: 3, pure_getters: true }, module: true, toplevel: true },
  },
}));
