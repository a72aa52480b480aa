import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import fs from "node:fs";
import { gzipAsync } from "@gfx/zopfli";
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

/**
 * Chunks imported lazily (the offer page, in the content route) are loaded by our own code
 * (app/utils/preloadable.ts) and Remix preloads route modules itself, so modulePreload is off
 * and Vite's dynamic-import helper (`__vitePreload`, ~0.6 KB gzip in the funnel step's bundle)
 * has nothing left to preload: it is replaced by a call of the import itself.
 */
function plainDynamicImports(): Plugin {
  return {
    name: "glow-plain-dynamic-imports",
    apply: "build",
    enforce: "pre",
    load(id) {
      if (id === "\0vite/preload-helper.js") return { code: "export const __vitePreload = (load) => load();", moduleSideEffects: false };
    },
  };
}

/**
 * Scripts and stylesheets are gzipped once here, beside each file (`x.js.gz`): the server sends
 * those bytes to a browser that takes gzip, so no request pays for compressing them. Zopfli
 * writes ordinary gzip that every browser reads, 3% smaller than zlib's highest level (the quiz
 * step's 90 KB budget counts these files); it is slow (a few seconds a build), so only here.
 */
function gzipAssets(): Plugin {
  return {
    name: "glow-gzip-assets",
    apply: "build",
    async writeBundle(options, bundle) {
      const files = Object.keys(bundle).filter((fileName) => /\.(js|css)$/.test(fileName));
      await Promise.all(
        files.map(async (fileName) => {
          const file = path.join(options.dir!, fileName);
          fs.writeFileSync(`${file}.gz`, await gzipAsync(fs.readFileSync(file), { numiterations: 15 }));
        }),
      );
    },
  };
}

/**
 * The server build is the HTTP server (app/server.ts), with the Remix build inside it: one
 * typed entry, built with the app, that `npm start` runs and `npm run dev` loads through Vite.
 * Remix's plugin names its virtual server build as the input; this names app/server.ts instead,
 * which imports that build (docs/decisions/0040-one-typed-server-entry.md).
 */
function serverEntry(): Plugin {
  return {
    name: "glow-server-entry",
    apply: "build",
    enforce: "post",
    configResolved(config) {
      if (config.build.ssr) config.build.rollupOptions.input = path.resolve(import.meta.dirname, "app/server.ts");
    },
  };
}

/**
 * Lazy route discovery is off (`v3_lazyRouteDiscovery: false`), yet Remix's browser build ships
 * its code (~1.5 KB gzip: link observers, manifest patching), which then never runs. The module is
 * replaced by what it does when off, so the quiz step carries none of it (ADR 43). Turning
 * discovery on needs this plugin removed: the build stops here if the two disagree.
 */
function noRouteDiscovery(lazyRouteDiscovery: boolean): Plugin {
  return {
    name: "glow-no-route-discovery",
    apply: "build",
    enforce: "pre",
    load(id) {
      if (!/[\\/]@remix-run[\\/]react[\\/]dist[\\/]esm[\\/]fog-of-war\.js$/.test(id)) return undefined;
      if (lazyRouteDiscovery) throw new Error("v3_lazyRouteDiscovery is on: remove noRouteDiscovery() from vite.config.ts");
      return {
        code: [
          "export const isFogOfWarEnabled = () => false;",
          "export const getPartialManifest = (manifest) => manifest;",
          "export const getPatchRoutesOnNavigationFunction = () => undefined;",
          "export const useFogOFWarDiscovery = () => {};",
          "export const fetchAndApplyManifestPatches = async () => {};",
        ].join("\n"),
        moduleSideEffects: false,
      };
    },
  };
}

const REMIX_FUTURE = {
  v3_fetcherPersist: true,
  v3_relativeSplatPath: true,
  v3_throwAbortReason: true,
  v3_singleFetch: true,
  v3_lazyRouteDiscovery: false,
  v3_routeConfig: true,
} as const;

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  plugins: [
    ...(isSsrBuild ? [serverEntry()] : [thirdPartyLicenses(), plainDynamicImports(), noRouteDiscovery(REMIX_FUTURE.v3_lazyRouteDiscovery), gzipAssets()]),
    tailwindcss(),
    remix({ future: REMIX_FUTURE }),
  ],
  build: {
    sourcemap: false,
    modulePreload: false,
    // The browser bundle is budgeted (scripts/check-client-build.mjs): terser's extra passes
    // save ~4 KB gzip over esbuild on React + Remix; unsafe_arrows another 0.1 KB (it turns
    // function expressions that never use `this` into arrows; nothing here calls them with `new`,
    // and the browser suite runs this build). The server bundle needs no minifying.
    minify: isSsrBuild ? false : "terser",
    rollupOptions: isSsrBuild
      ? // The server build stays one file (build/server/index.js): code that finds the client build
        // beside it (the stylesheet) reads paths relative to it, and lazily imported chunks (the
        // offer page) only matter in the browser.
        { output: { inlineDynamicImports: true } }
      : {
          output: {
            // Small helpers shared by the quiz and other pages (form errors, hydration flag,
            // icons, toasts, the site's chrome) travel as one chunk: six tiny files each cost
            // an import and a gzip header, which the quiz's 90 KB budget feels.
            manualChunks(id) {
              if (/[\\/]app[\\/](utils[\\/](form-errors|use-hydrated)|components[\\/](site-chrome|ui[\\/](icons|toaster)))\.tsx?$/.test(id))
                return "site-chrome";
              return undefined;
            },
          },
        },
    terserOptions: {
      ecma: 2020,
      compress: { passes: 4, pure_getters: true, keep_fargs: false, unsafe_arrows: true },
      module: true,
      toplevel: true,
      format: { comments: false },
    },
  },
}));
