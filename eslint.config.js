// Lint for the app, its scripts and tests: TypeScript, React, hooks and accessibility rules
// (docs/decisions/0022-lint-and-format.md). Formatting is Prettier's job only (`npm run lint` runs both).
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/",
      "node_modules/",
      "studio/",
      "public/build/",
      "app/generated/",
      "prisma/generated/",
      "playwright-report/",
      "test-results/",
      "blob-report/",
      "data/",
      ".cache/",
      "docs/screenshots/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
    },
  },
  {
    files: ["app/**/*.tsx"],
    ...react.configs.flat.recommended,
    ...react.configs.flat["jsx-runtime"],
    plugins: { react, "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    settings: { react: { version: "18.3" } },
    rules: {
      ...react.configs.flat.recommended.rules,
      ...react.configs.flat["jsx-runtime"].rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // Props are typed by TypeScript; prop-types would repeat the types at run time.
      "react/prop-types": "off",
      // The product copy is full of apostrophes ("You're", "Today's"); React escapes text itself,
      // so writing &apos; would only make the copy harder to read and compare.
      "react/no-unescaped-entities": "off",
    },
  },
  {
    files: ["tests/**/*.ts"],
    rules: {
      // Tests feed deliberately malformed documents and reach into loosely typed JSON.
      "@typescript-eslint/no-explicit-any": "off",
      // Playwright fixtures that need only testInfo are written `async ({}, testInfo)`.
      "no-empty-pattern": "off",
    },
  },
);
