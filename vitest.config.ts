import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit tests run without the Remix plugin: they test pure modules and server functions.
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    environment: "node",
    env: { APP_ENV: "local", DATA_DIR: "test-results/unit-data" },
  },
});
