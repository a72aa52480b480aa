/**
 * Values built once and shared, unchanged, by every request that shows them (a funnel's plan,
 * built once per funnel version: funnels/flow.server.ts). Each gets an identity of its own, so
 * code that compares whole loader data (the stored renders' key, render/stored-renders.server.ts)
 * names such a value by its identity instead of serializing it again on every render: the skin
 * quiz's plan is about 10 KB of JSON on every question page (ADR 43), ADR 47.
 */
import { randomBytes } from "node:crypto";

const identities = new WeakMap<object, string>();
/** No loader value can spell an identity: they carry this process's random prefix. */
const PREFIX = `\u0000unchanging:${randomBytes(8).toString("hex")}:`;
let count = 0;

/** `value` is never changed from now on: it is given an identity (answered as it is). */
export function unchanging<T extends object>(value: T): T {
  if (!identities.has(value)) identities.set(value, `${PREFIX}${++count}`);
  return value;
}

/** The identity of a value marked unchanging; undefined for any other value. */
export function identityOf(value: unknown): string | undefined {
  return typeof value === "object" && value !== null ? identities.get(value) : undefined;
}
