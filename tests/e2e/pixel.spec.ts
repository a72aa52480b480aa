/**
 * The Meta pixel with META_PIXEL_ID set. The main e2e server runs without one (site-pages
 * spec: nothing third-party loads), so this spec starts a second production server with a
 * pixel id on its own port and data folder. Meta's script is answered locally by a stub;
 * the fbq queue then holds exactly what the page asked Meta to track.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { visitorId } from "./support";

const PORT = Number(process.env.E2E_PORT ?? 3210) + 17;
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = "test-results/e2e-data-pixel";
const PIXEL_ID = "123456789012";

let server: ChildProcess | undefined;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({}, testInfo) => {
  if (testInfo.project.name !== "desktop") return;
  test.setTimeout(120_000);
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  server = spawn("node", ["scripts/start.mjs"], {
    env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR, APP_ENV: "local", META_PIXEL_ID: PIXEL_ID, SMTP_URL: "", TEST_CLOCK: "" },
    stdio: "ignore",
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${BASE}/`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error("the pixel server did not start");
});

test.afterAll(() => {
  server?.kill();
});

function eventIds(visitor: string, name: string): string[] {
  const db = new Database(path.join(DATA_DIR, "glow-coach.db"), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(`SELECT id FROM "AnalyticsEvent" WHERE visitorId = ? AND name = ? ORDER BY createdAt`).all(visitor, name) as { id: string }[]).map(
      (r) => r.id,
    );
  } finally {
    db.close();
  }
}

async function tracked(page: Page): Promise<unknown[][]> {
  return page.evaluate(() => ((window as unknown as { fbq: { queue: IArguments[] } }).fbq.queue ?? []).map((args) => Array.from(args)));
}

test("with META_PIXEL_ID the pixel loads and quiz events carry the server's event ids", async ({ page, context }) => {
  const scripts: string[] = [];
  await context.route("https://connect.facebook.net/**", (route) => {
    scripts.push(route.request().url());
    return route.fulfill({ contentType: "text/javascript", body: "/* stub of Meta's fbevents.js */" });
  });

  await page.goto(`${BASE}/crease-crisis`);
  await expect.poll(() => scripts).toEqual(["https://connect.facebook.net/en_US/fbevents.js"]);
  const visitor = await visitorId(context);
  const [viewedId] = eventIds(visitor, "funnel_viewed");
  expect(viewedId).toBeTruthy();
  await expect
    .poll(() => tracked(page))
    .toEqual([
      ["init", PIXEL_ID],
      ["track", "PageView"],
      ["track", "ViewContent", { content_ids: ["crease-crisis"], content_name: expect.any(String), content_type: "quiz" }, { eventID: viewedId }],
    ]);

  for (const [label, next] of [
    ["By lunchtime", "/crease-crisis/2"],
    ["Under my eyes", "/crease-crisis/3"],
    ["Self-conscious", "/crease-crisis/4"],
    ["A full workday", "/crease-crisis/5"],
    ["Feeling confident all day", "/crease-crisis/6"],
  ]) {
    await page.getByRole("button", { name: label, exact: true }).click();
    await expect(page).toHaveURL(`${BASE}${next}`);
  }
  await expect(page).toHaveURL(`${BASE}/crease-crisis/7`, { timeout: 10_000 });
  const [completedId] = eventIds(visitor, "funnel_completed");
  expect(completedId).toBeTruthy();
  await expect
    .poll(async () => (await tracked(page)).filter((call) => call[1] === "Lead"))
    .toEqual([["track", "Lead", { content_ids: ["crease-crisis"], content_name: expect.any(String) }, { eventID: completedId }]]);
  // Client-side navigations fire each event once; the loader script is loaded once.
  expect((await tracked(page)).filter((call) => call[1] === "ViewContent")).toHaveLength(1);
  expect(scripts).toHaveLength(1);
});
