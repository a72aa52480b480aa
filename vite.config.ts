import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import fs from "node:fs";
import { defineConfig, type Plugin } from "vite";

/**
 * The browser bundle ships without comments (2.4 KB gzip of license banners); the licenses
 * of every package in it are collected into assets/third-party-licenses.txt instead.
 */
function thirdPartyLicenses(): Plugin {
  return {
    name: "glow-third-party-licenses",
    apply: "build",
    generateBundle() {
      const packages = new Map<string, string>();
      for (const id of this.getModuleIds()) {
        // Virtual modules ("\0…") and queries ("?commonjs-proxy") wrap real file paths.
        const file = id.replace(/^\0/, "").split("?")[0];
        const match = /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(file);
        if (!match || packages.has(match[1]) || !fs.existsSync(path.join(match[1], "package.json"))) continue;
        const dir = match[1];
        const license = fs.readdirSync(dir).find((name) => /^licen[cs]e/i.test(name));
        const { name, version } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
        packages.set(dir, `${name}@${version}\n\n${license ? fs.readFileSync(path.join(dir, license), "utf8").trim() : "(no license file)"}`);
      }
      if (packages.size === 0) return;
      this.emitFile({ type: "asset", fileName: "assets/third-party-licenses.txt", source: `${[...packages.values()].sort().join("\n\n---\n\n")}\n` });
    },
  };
}

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  plugins: [
    ...(isSsrBuild ? [] : [thirdPartyLicenses()]),
    tailwindcss(),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: false,
        v3_routeConfig: true,
      },
    }),
  ],
  build: {
    sourcemap: false,
    // The browser bundle is budgeted (scripts/check-client-build.mjs): terser's extra passes
    // save ~4 KB gzip over esbuild on React + Remix. The server bundle needs no minifying.
    minify: isSsrBuild ? false : "terser",
    rollupOptions: isSsrBuild
      ? {}
      : {
          output: {
            // Small helpers shared by the quiz and other pages (form errors, hydration flag,
            // icons, toasts, the site's chrome) travel as one chunk: six tiny files each cost
            // an import and a gzip header, which the quiz's 90 KB budget feels.
            manualChunks(id) {
              if (/[\\/]app[\\/](utils[\\/](form-errors|use-hydrated)|components[\\/](site-chrome|ui[\\/](icons|toaster)))\.tsx?$/.test(id)) return "site-chrome";
              return undefined;
            },
          },
        },
    terserOptions: { ecma: 2020, compress: { passes: 4, pure_getters: true, keep_fargs: false }, module: true, toplevel: true, format: { comments: false } },
  },
}));
