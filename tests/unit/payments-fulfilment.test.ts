/**
 * Checkout fulfilment under the conditions a real shop meets: the same checkout completed
 * several times at once on two app instances (a Stripe webhook racing /payment-success, a
 * double submit), and the process killed part-way through a completion.
 *
 * Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL (.ci/run), where the race first
 * showed: a second insert of a new buyer's account failed on the unique e-mail and answered 500.
 */
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { accountForPurchase } from "~/auth/users.server";
import { getOfferByPath } from "~/content/content.server";
import { startCheckout } from "~/payments/checkout.server";
import { fulfilCheckout } from "~/payments/fulfilment.server";
import { completeLocalCheckout } from "~/payments/local-checkout.server";
import { db } from "~/utils/db.server";

type Completion = typeof completeLocalCheckout;

/**
 * A second app instance in this process: the app's modules loaded afresh, with a database
 * client and connections of their own, as another server process would have. On PostgreSQL
 * only: there this file runs with modules of its own; on SQLite it shares them with other
 * files (vitest.config.ts), so it must not reset them.
 */
async function secondInstance(): Promise<{
  completeLocalCheckout: Completion;
  fulfilCheckout: typeof fulfilCheckout;
  accountForPurchase: typeof accountForPurchase;
  close: () => Promise<void>;
}> {
  const shared = globalThis as { __glowDb?: unknown; __glowPool?: unknown };
  const first = { __glowDb: shared.__glowDb, __glowPool: shared.__glowPool };
  delete shared.__glowDb;
  delete shared.__glowPool;
  vi.resetModules();
  try {
    const [checkout, fulfilment, users, sql] = await Promise.all([
      import("~/payments/local-checkout.server"),
      import("~/payments/fulfilment.server"),
      import("~/auth/users.server"),
      import("~/utils/sql.server"),
    ]);
    return {
      completeLocalCheckout: checkout.completeLocalCheckout,
      fulfilCheckout: fulfilment.fulfilCheckout,
      accountForPurchase: users.accountForPurchase,
      close: sql.closeDatabase,
    };
  } finally {
    Object.assign(shared, first);
  }
}

async function localCheckout(offerPath: string, planId: string, visitorId: string): Promise<string> {
  const offer = (await getOfferByPath(offerPath))!;
  const started = await startCheckout({ offer, planId, user: null, visitorId, cookieHeader: null });
  if (!started.ok) throw new Error(started.reason);
  return started.url.split("/").pop()!;
}

const SKIN_ANSWERS = { skin_type: "oily", concern: ["acne"] };

/** A checkout begun after the skin quiz (its answers ride along, as the offer page records them). */
async function checkoutAfterQuiz(visitorId: string): Promise<string> {
  const id = await localCheckout("/subscribe", "annual", visitorId);
  const context = JSON.stringify({ funnel: "skin", answers: SKIN_ANSWERS, at: new Date(Date.now() - 60_000).toISOString() });
  await db.checkoutSession.update({ where: { id }, data: { context } });
  return id;
}

/** Everything one paid checkout leaves behind, counted. */
async function purchaseRecord(id: string, email: string, visitorId: string) {
  const users = await db.user.findMany({ where: { email }, include: { entitlements: { include: { states: true } }, answers: true } });
  const session = await db.checkoutSession.findUniqueOrThrow({ where: { id } });
  const purchases = await db.analyticsEvent.count({ where: { name: "purchase", visitorId } });
  return {
    users: users.length,
    entitlements: users.flatMap((u) => u.entitlements).length,
    states: users.flatMap((u) => u.entitlements.flatMap((e) => e.states)).length,
    activePlan: users[0]?.activePlanId ?? null,
    answers: users[0]?.answers.map((a) => ({ funnel: a.funnelId, answers: JSON.parse(a.answers) })) ?? [],
    session: { status: session.status, paidBy: session.userId === null ? null : session.userId === users[0]?.id ? "the buyer" : session.userId },
    purchases,
  };
}

const ONCE = {
  users: 1,
  entitlements: 1,
  states: 1,
  activePlan: "clear-healthy-skin",
  answers: [{ funnel: "skin", answers: SKIN_ANSWERS }],
  session: { status: "complete", paidBy: "the buyer" },
  purchases: 1,
};

const NOTHING = { users: 0, entitlements: 0, states: 0, activePlan: null, answers: [], session: { status: "open", paidBy: null }, purchases: 0 };

/**
 * Two instances on PostgreSQL, as deployed. Two instances on one SQLite file are two worker
 * processes; in one process their connections would wait for each other's locks while
 * blocking the thread that would release them, so on SQLite the completions all run on one.
 */
const onPostgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "");

describe(`one new buyer's checkout completed eight times at once${onPostgres ? " on two instances" : ""}`, () => {
  let other: Awaited<ReturnType<typeof secondInstance>> | undefined;
  beforeAll(async () => {
    if (onPostgres) other = await secondInstance();
  });
  afterAll(async () => {
    await other?.close();
  });

  const ROUNDS = 5;
  const AT_ONCE = 8;

  it("answers every completion with the success page, and stores one account, one entitlement, one purchase", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const visitorId = `visitor-race-${crypto.randomUUID()}`;
      const id = await checkoutAfterQuiz(visitorId);
      const email = `race-buyer-${crypto.randomUUID()}@example.com`;
      const outcomes = await Promise.allSettled(
        Array.from({ length: AT_ONCE }, (_, i) => (i % 2 && other ? other.completeLocalCheckout : completeLocalCheckout)({ id, visitorId, user: null, email })),
      );
      const answers = outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : `error: ${(outcome.reason as Error).message}`));
      expect(answers).toEqual(Array.from({ length: AT_ONCE }, () => ({ go: `/payment-success?session_id=${id}`, cookies: [] })));
      expect(await purchaseRecord(id, email, visitorId)).toEqual(ONCE);
    }
  });

  it("a Stripe webhook and /payment-success fulfilling one new buyer's session at once: the same one purchase", async () => {
    // Both paths call fulfilCheckout; the webhook dates the purchase by its event, the success page by the session.
    for (let round = 0; round < ROUNDS; round++) {
      const visitorId = `visitor-webhook-race-${crypto.randomUUID()}`;
      const id = await checkoutAfterQuiz(visitorId);
      const email = `webhook-race-${crypto.randomUUID()}@example.com`;
      const row = await db.checkoutSession.findUniqueOrThrow({ where: { id } });
      const fromWebhook = { checkoutSessionId: id, email, offerId: row.offerId, planId: row.planId, at: new Date(), visitorId };
      const fromSuccessPage = { ...fromWebhook, at: row.createdAt };
      const outcomes = await Promise.allSettled([
        fulfilCheckout(fromWebhook),
        (other?.fulfilCheckout ?? fulfilCheckout)(fromSuccessPage),
        fulfilCheckout(fromWebhook),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
      const results = outcomes.map((o) => (o as PromiseFulfilledResult<Awaited<ReturnType<typeof fulfilCheckout>>>).value);
      expect(results.filter((r) => r.purchased)).toHaveLength(1);
      expect(new Set(results.map((r) => r.entitlementId)).size).toBe(1);
      expect(await purchaseRecord(id, email, visitorId)).toEqual(ONCE);
    }
  });

  it("a Stripe subscription event for a customer not met yet finds the checkout's new account, created at the same moment", async () => {
    // customer.subscription.created may come with checkout.session.completed; it finds the account by Stripe's e-mail.
    for (let round = 0; round < ROUNDS; round++) {
      const visitorId = `visitor-subscription-race-${crypto.randomUUID()}`;
      const id = await checkoutAfterQuiz(visitorId);
      const email = `new-customer-${crypto.randomUUID()}@example.com`;
      const row = await db.checkoutSession.findUniqueOrThrow({ where: { id } });
      const completion = { checkoutSessionId: id, email, offerId: row.offerId, planId: row.planId, at: new Date(), visitorId };
      const instances = [{ fulfilCheckout, accountForPurchase }, other ?? { fulfilCheckout, accountForPurchase }];
      const outcomes = await Promise.allSettled(
        instances.flatMap((instance) => [instance.fulfilCheckout(completion).then((r) => r.userId), instance.accountForPurchase(email).then((a) => a.id)]),
      );
      expect(outcomes.map((o) => (o.status === "fulfilled" ? "the account" : `error: ${(o.reason as Error).message}`))).toEqual(Array(4).fill("the account"));
      expect(new Set(outcomes.map((o) => (o as PromiseFulfilledResult<string>).value)).size).toBe(1);
      expect(await purchaseRecord(id, email, visitorId)).toEqual(ONCE);
    }
  });
});

describe("a server killed part-way through completing a checkout", () => {
  // The completing process starts once per write (a dozen times): bundled once here, it loads
  // the app in under half the CPU time that compiling each module on the way in (tsx) takes,
  // and with the packages inside the bundle, in two thirds of the time again (no resolving
  // and reading hundreds of package files per start). Outside it: the drivers it patches
  // (so they are the ones the app uses), Prisma (it reads its engine from its own folder) and
  // pino (it starts its writer from its own folder).
  const child = path.resolve(process.env.DATA_DIR!, "checkout-killed-midway.mjs");
  beforeAll(async () => {
    await build({
      entryPoints: ["tests/unit/checkout-killed-midway.ts"],
      outfile: child,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node22",
      external: ["better-sqlite3", "pg", "@prisma/*", "pino", "pino-pretty"],
      // Bundled CommonJS packages call require(); an ES module has none of its own.
      banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
      alias: { "~": path.resolve("app") },
      logLevel: "warning",
    });
  });

  /** Completes the checkout in a fresh server process killed (SIGKILL) right after its Nth write reached the database. */
  function completeAndKill(id: string, visitorId: string, email: string, killAfterWrite: number): Promise<"killed" | "finished"> {
    return new Promise((resolve, reject) =>
      execFile(
        process.execPath,
        [child, id, visitorId, email],
        { env: { ...process.env, KILL_AFTER_WRITE: String(killAfterWrite) } },
        (error, stdout, stderr) => {
          if (!error) resolve("finished");
          else if (error.signal === "SIGKILL") resolve("killed");
          else reject(new Error(`the completing process failed: ${stderr || stdout || error.message}`));
        },
      ),
    );
  }

  it("leaves all of the purchase or none of it at every write, and a retry completes it exactly once", { timeout: 600_000 }, async () => {
    const killedAt: number[] = [];
    const wrong: string[] = [];
    for (let write = 1; ; write++) {
      const visitorId = `visitor-killed-${crypto.randomUUID()}`;
      const id = await checkoutAfterQuiz(visitorId);
      const email = `killed-buyer-${crypto.randomUUID()}@example.com`;
      const run = await completeAndKill(id, visitorId, email, write);

      // What the killed server left: the whole purchase or nothing of it, never half.
      const left = await purchaseRecord(id, email, visitorId);
      if (!isDeepStrictEqual(left, ONCE) && !isDeepStrictEqual(left, NOTHING)) wrong.push(`killed after write ${write}, left ${JSON.stringify(left)}`);

      // The buyer submits the checkout again (the page failed); Stripe delivers its webhook again.
      const again = await completeLocalCheckout({ id, visitorId, user: null, email });
      const row = await db.checkoutSession.findUniqueOrThrow({ where: { id } });
      await fulfilCheckout({ checkoutSessionId: id, email, offerId: row.offerId, planId: row.planId, at: new Date(), visitorId });
      const retried = await purchaseRecord(id, email, visitorId);
      if (!isDeepStrictEqual(again, { go: `/payment-success?session_id=${id}`, cookies: [] }) || !isDeepStrictEqual(retried, ONCE)) {
        wrong.push(`killed after write ${write}, the retry answered ${JSON.stringify(again)} and left ${JSON.stringify(retried)}`);
      }

      if (run === "finished") break;
      killedAt.push(write);
    }
    expect(wrong).toEqual([]);
    // Every write of a completion was a place to die (more than a handful: the account, the
    // entitlement and its state, the checkout, the plan, the answers, the event, the commit).
    expect(killedAt.length).toBeGreaterThanOrEqual(5);
  });
});
