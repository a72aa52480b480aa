/**
 * Daily reminders and streak freezes, on the test clock: every request of a context carries
 * X-Test-Clock-Offset-Ms, and POST /test/reminders (TEST_CLOCK only) runs the reminder queue
 * once at that request's time, instead of waiting for the minute loop.
 */
import { expect, test, type APIRequestContext, type BrowserContext } from "@playwright/test";
import { E2E_MAIL_DIR, readAll, waitForEmail, type ReceivedEmail } from "./mail-server";
import { signedInMember } from "./members-helpers";
import { rows, run } from "./test-db";
import { queueTurn } from "./support";

const LA = "America/Los_Angeles";
const PLAN = "clear-healthy-skin";
const DAY_MS = 86_400_000;

function localDateIn(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The instant of `hour`:`minute` on `date` in Los Angeles (UTC-8 or UTC-7; no DST change happens at these hours). */
function laTime(date: string, hour: number, minute = 0): Date {
  const [y, m, d] = date.split("-").map(Number);
  for (const offset of [7, 8]) {
    const at = new Date(Date.UTC(y, m - 1, d, hour + offset, minute));
    const wall = new Intl.DateTimeFormat("en-CA", { timeZone: LA, hourCycle: "h23", hour: "2-digit", minute: "2-digit" }).format(at);
    if (localDateIn(at, LA) === date && wall === `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`) return at;
  }
  throw new Error(`no ${hour}:${minute} on ${date} in ${LA}`);
}

/** A Los Angeles date a few days ahead, not a Monday (so yesterday is in the same week on /home). */
function testDay(): string {
  let day = addDays(localDateIn(new Date(), LA), 3);
  if (new Date(`${day}T12:00:00Z`).getUTCDay() === 1) day = addDays(day, 1);
  return day;
}

async function setClock(context: BrowserContext, at: Date) {
  await context.setExtraHTTPHeaders({ "X-Test-Clock-Offset-Ms": String(at.getTime() - Date.now()) });
}

async function runReminders(request: APIRequestContext, at: Date) {
  const answer = await request.post("/test/reminders", { headers: { "X-Test-Clock-Offset-Ms": String(at.getTime() - Date.now()) } });
  expect(answer.status()).toBe(200);
}

async function remindersTo(email: string): Promise<ReceivedEmail[]> {
  return (await readAll(E2E_MAIL_DIR)).filter(
    (mail) => mail.to.toLowerCase() === email.toLowerCase() && mail.subject !== "" && /streak|routine/i.test(mail.subject),
  );
}

async function seedDone(userId: string, dates: string[]) {
  for (const date of dates) {
    await run(
      `INSERT INTO "PlanCompletion" ("id","userId","planId","date","createdAt") VALUES (?,?,?,?,?)`,
      crypto.randomUUID(),
      userId,
      PLAN,
      date,
      new Date(),
    );
  }
}

const HTML_ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
function buttonLink(mail: ReceivedEmail, label: string): string {
  const escaped = label.replaceAll("'", "&#39;");
  const button = new RegExp(`<a\\b[^>]*\\bhref="([^"]*)"[^>]*>\\s*${escaped}\\s*</a>`, "i").exec(mail.html);
  if (!button) throw new Error(`no '${label}' link in "${mail.subject}"`);
  return button[1].replace(/&(amp|lt|gt|quot|#39);/g, (entity) => HTML_ENTITIES[entity]);
}

test.describe("daily reminders", () => {
  // One queue for the whole server, and each run claims every due job: these run one at a time.
  test.describe.configure({ mode: "serial" });
  // ...and take turns with every other test that runs the queues (another project's copy too).
  let giveBack = () => {};
  test.beforeEach(async () => {
    giveBack = await queueTurn();
  });
  test.afterEach(() => giveBack());
  // The queue is shared by the whole server: one project runs these (untagged: desktop only).
  test("7:00 in Los Angeles, not finished: exactly one reminder at 7:00 local with plan and streak; the button opens the routine; unsubscribe without signing in", async ({
    page,
    context,
    baseURL,
    browser,
  }) => {
    const day = testDay();
    const { email, userId } = await signedInMember(context, baseURL!, { subscription: "monthly" });
    await run(`UPDATE "User" SET "timeZone" = ? WHERE "id" = ?`, LA, userId);
    await seedDone(userId, [addDays(day, -3), addDays(day, -2), addDays(day, -1)]);

    // The evening before, the member turns the reminder on for 7:00 AM on /profile.
    await setClock(context, laTime(addDays(day, -1), 20));
    await page.goto("/profile");
    await expect(page.getByRole("checkbox", { name: "Send me a daily reminder" })).not.toBeChecked();
    await expect(page.getByLabel("At")).toHaveValue("8");
    await expect(page.getByText("Your time zone: America/Los Angeles")).toBeVisible();
    await page.getByRole("checkbox", { name: "Send me a daily reminder" }).check();
    await page.getByLabel("At").selectOption({ label: "7:00 AM" });
    await page.getByRole("button", { name: "Save Reminder" }).click();
    await expect(page.getByTestId("reminder-status")).toHaveText("Saved: every day at 7:00 AM");
    await expect(page.getByRole("checkbox", { name: "Send me a daily reminder" })).toBeChecked();

    // 6:59: nothing yet. 7:00: one. Later runs that day: still one.
    await runReminders(context.request, laTime(day, 6, 59));
    expect(await remindersTo(email)).toHaveLength(0);
    // Two runs at once (with E2E_INSTANCES=2, on two instances): still one e-mail.
    await Promise.all([runReminders(context.request, laTime(day, 7, 0)), runReminders(context.request, laTime(day, 7, 0))]);
    const mail = await waitForEmail(E2E_MAIL_DIR, email);
    await runReminders(context.request, laTime(day, 7, 1));
    await runReminders(context.request, laTime(day, 9, 30));
    expect(await remindersTo(email)).toHaveLength(1);
    expect(Date.parse(mail.receivedAt)).toBeGreaterThan(0);
    expect(mail.subject).toBe("Keep your 3-day streak going");
    expect(mail.text).toContain("Today's Clear & Healthy Skin routine is waiting for you");
    expect(mail.html).toContain("Keep your 3-day streak going");
    const unsubscribe = buttonLink(mail, "Turn off reminders");
    expect(mail.headers?.["list-unsubscribe"]?.replace(/\s/g, "")).toBe(`<${unsubscribe}>`);
    expect(mail.headers?.["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");

    // The button opens today's routine (the member is signed in in this browser).
    await setClock(context, laTime(day, 7, 5));
    await page.goto(buttonLink(mail, "Open Today's Routine"));
    await expect(page).toHaveURL(new RegExp(`/plan/${PLAN}$`));
    await expect(page.getByRole("button", { name: /Complete & Next|Complete Step/ }).first()).toBeVisible();

    // Signed out, the same link leads to sign-in: it signs nobody in.
    const stranger = await browser.newContext();
    const strangerPage = await stranger.newPage();
    await strangerPage.goto(buttonLink(mail, "Open Today's Routine"));
    await expect(strangerPage).toHaveURL(/\/login/);
    // A tampered link is refused.
    const tampered = await stranger.request.get(buttonLink(mail, "Open Today's Routine").replace(PLAN, "makeup-prep"), { maxRedirects: 0 });
    expect(tampered.status()).toBe(400);

    // Unsubscribe from the e-mail, without signing in.
    await strangerPage.goto(unsubscribe);
    await expect(strangerPage.getByRole("heading", { name: "Turn off daily reminders?" })).toBeVisible();
    await expect(strangerPage.getByText(email)).toHaveCount(0);
    await strangerPage.getByRole("button", { name: "Turn Off Reminders" }).click();
    await expect(strangerPage.getByRole("heading", { name: "Reminders are off" })).toBeVisible();
    const [user] = await rows<{ reminderOn: number | boolean }>(`SELECT "reminderOn" FROM "User" WHERE "id" = ?`, userId);
    expect(Boolean(user.reminderOn)).toBe(false);
    expect(await rows(`SELECT 1 FROM "ReminderJob" WHERE "userId" = ?`, userId)).toHaveLength(0);
    await runReminders(context.request, laTime(addDays(day, 1), 7, 0));
    expect(await remindersTo(email)).toHaveLength(1);

    // The mail app's one-click POST (RFC 8058) from its own servers works too; a forged token does not.
    const oneClick = await stranger.request.post(unsubscribe, { form: { "List-Unsubscribe": "One-Click" } });
    expect(oneClick.status()).toBe(200);
    const forged = await stranger.request.post(unsubscribe.replace(/token=[^.]+/, "token=someone-else"), { form: { "List-Unsubscribe": "One-Click" } });
    expect(forged.status()).toBe(400);
    await stranger.close();
  });

  test("a member who finished before the hour gets none; the first finish offers the reminder with one tap", async ({ page, context, baseURL }) => {
    // Later than the other test's days, so its runs never reach this member's reminder.
    const day = addDays(testDay(), 10);
    const { email } = await signedInMember(context, baseURL!, { subscription: "monthly" });
    await setClock(context, laTime(day, 6, 30));
    for (let step = 1; step <= 6; step++) {
      const answer = await context.request.post(`/plan/${PLAN}`, { form: { intent: "complete-step", step: String(step), timeZone: LA }, maxRedirects: 0 });
      expect(answer.status()).toBe(303);
    }
    await page.goto(`/plan/${PLAN}?step=6`);
    await page.getByRole("button", { name: "Finish Today's Routine" }).click();
    await page.waitForURL("**/home");
    await expect(page.getByRole("heading", { name: "Want a nudge tomorrow?" })).toBeVisible();
    await page.getByRole("button", { name: "Remind Me Daily" }).click();
    await page.waitForURL("**/home");
    await expect(page.getByText("Daily reminder on at 8:00 AM")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Want a nudge tomorrow?" })).toHaveCount(0);

    await runReminders(context.request, laTime(day, 8, 0));
    await runReminders(context.request, laTime(day, 8, 30));
    expect(await remindersTo(email)).toHaveLength(0);
    // The next day, not finished: the 8:00 reminder comes.
    await runReminders(context.request, laTime(addDays(day, 1), 8, 0));
    await expect.poll(async () => (await remindersTo(email)).map((mail) => mail.subject)).toEqual(["Keep your 1-day streak going"]);
  });
});

test.describe("streak freezes", () => {
  test("a missed day with a freeze keeps the streak on /home, marked as frozen", async ({ page, context, baseURL }) => {
    const day = testDay();
    const { userId } = await signedInMember(context, baseURL!, { subscription: "monthly" });
    await run(`UPDATE "User" SET "timeZone" = ? WHERE "id" = ?`, LA, userId);
    // Seven days in a row earn a freeze; yesterday was missed.
    await seedDone(
      userId,
      Array.from({ length: 7 }, (_, i) => addDays(day, -8 + i)),
    );
    await setClock(context, laTime(day, 12));
    await page.goto("/home");
    await expect(page.getByTestId("streak")).toHaveText(/Current Streak: 7 days$/);
    const yesterday = page.locator(`[data-frozen='true']`);
    await expect(yesterday).toHaveCount(1);
    await expect(yesterday).toHaveAttribute("aria-label", /: streak freeze used$/);
    // The note says what happened to the missed day (not "earn a streak freeze", as if none had been used).
    const missed = new Date(`${addDays(day, -1)}T12:00:00Z`).toLocaleDateString("en-US", { weekday: "long", timeZone: "UTC" });
    await expect(page.getByTestId("freezes")).toHaveText(`A streak freeze covered ${missed}, so your streak lives on. Finish 7 days in a row to earn another.`);

    // Finished today: the streak grows; another 6 days would earn the next freeze.
    await seedDone(userId, [day]);
    await page.reload();
    await expect(page.getByTestId("streak")).toHaveText(/Current Streak: 8 days$/);
  });

  test("freezes held are shown; without one a missed day ends the streak", async ({ page, context, baseURL }) => {
    const day = testDay();
    const { userId } = await signedInMember(context, baseURL!, { subscription: "monthly" });
    await run(`UPDATE "User" SET "timeZone" = ? WHERE "id" = ?`, LA, userId);
    await seedDone(
      userId,
      Array.from({ length: 14 }, (_, i) => addDays(day, -14 + i)),
    );
    await setClock(context, laTime(day, 12));
    await page.goto("/home");
    await expect(page.getByTestId("freezes")).toHaveText("2 streak freezes held: a missed day uses one, so your streak lives on.");
    await expect(page.getByTestId("streak")).toHaveText(/Current Streak: 14 days$/);

    // Six days then a miss: no freeze, the streak is gone.
    const other = await signedInMember(context, baseURL!, { subscription: "monthly" });
    await run(`UPDATE "User" SET "timeZone" = ? WHERE "id" = ?`, LA, other.userId);
    await seedDone(
      other.userId,
      Array.from({ length: 6 }, (_, i) => addDays(day, -7 + i)),
    );
    await page.goto("/home");
    await expect(page.getByTestId("streak")).toHaveText(/Current Streak: 0 days$/);
    await expect(page.locator(`[data-frozen='true']`)).toHaveCount(0);
  });
});

test.describe("the reminder form", () => {
  test("works as a plain form (also without JavaScript); bad input gets a clear 400 and changes nothing @no-js", async ({ page, context, baseURL }) => {
    const { userId } = await signedInMember(context, baseURL!, { subscription: "monthly" });
    await page.goto("/profile");
    await page.getByRole("checkbox", { name: "Send me a daily reminder" }).check();
    await page.getByLabel("At").selectOption({ label: "6:00 PM" });
    await page.getByRole("button", { name: "Save Reminder" }).click();
    await expect(page.getByTestId("reminder-status")).toHaveText("Saved: every day at 6:00 PM");
    const [saved] = await rows<{ reminderOn: number | boolean; reminderHour: number }>(
      `SELECT "reminderOn", "reminderHour" FROM "User" WHERE "id" = ?`,
      userId,
    );
    expect([Boolean(saved.reminderOn), Number(saved.reminderHour)]).toEqual([true, 18]);

    for (const form of [
      { intent: "reminder", reminder: "on", hour: "24" } as Record<string, string>,
      { intent: "reminder", reminder: "maybe", hour: "7" },
      { intent: "other" },
    ]) {
      const answer = await context.request.post("/profile", { form, maxRedirects: 0, headers: { Origin: baseURL! } });
      expect(answer.status(), JSON.stringify(form)).toBe(400);
      expect(await answer.text()).not.toMatch(/at .*\.(ts|js):\d+/);
    }
    // A tampered hour from the page comes back beside the list, with the box still ticked.
    await page.getByLabel("At").evaluate((select: HTMLSelectElement) => select.add(new Option("12:00 AM tomorrow", "24", true, true)));
    await page.getByRole("button", { name: "Save Reminder" }).click();
    await expect(page.getByLabel("At")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("At")).toHaveAccessibleDescription(/^Please choose an hour for your reminder from the list\./);
    await expect(page.getByRole("checkbox", { name: "Send me a daily reminder" })).toBeChecked();
    await expect(page.getByTestId("reminder-status")).toHaveCount(0);

    const [after] = await rows<{ reminderOn: number | boolean; reminderHour: number }>(
      `SELECT "reminderOn", "reminderHour" FROM "User" WHERE "id" = ?`,
      userId,
    );
    expect([Boolean(after.reminderOn), Number(after.reminderHour)]).toEqual([true, 18]);

    // Off again.
    await page.getByLabel("At").selectOption({ label: "6:00 PM" });
    await page.getByRole("checkbox", { name: "Send me a daily reminder" }).uncheck();
    await page.getByRole("button", { name: "Save Reminder" }).click();
    await expect(page.getByTestId("reminder-status")).toHaveText("Saved: reminders are off");
    expect(await rows(`SELECT 1 FROM "ReminderJob" WHERE "userId" = ?`, userId)).toHaveLength(0);
  });
});
