import fs from "node:fs";
import { stylesheetHref } from "./stylesheet";

let text: string | undefined;

/** The built stylesheet's text (read once; the server build sits next to the client build). */
export function stylesheetText(): string | undefined {
  if (import.meta.env.DEV) return undefined;
  text ??= fs.readFileSync(new URL(`../client${stylesheetHref}`, import.meta.url), "utf8");
  return text;
}
