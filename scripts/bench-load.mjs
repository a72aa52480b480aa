// The load section of `npm run bench` (`npm run bench -- --only=load`): 200 simulated members,
// all at once, for 60 s (LOAD_MEMBERS, LOAD_SECONDS). Each member repeats one day of use:
// sign in with e-mail and password → GET /home → GET /plan/:id → complete the six steps →
// finish today's routine → log out. Every loop is the member's next day (the bench server runs
// with TEST_CLOCK=1 and each request carries X-Test-Clock-Offset-Ms), so every finish must add
// one PlanCompletion row, and the sign-in limits (10 a day per address) see one sign-in a day,
// as in real use. Each member has its own address (X-Forwarded-For, TRUST_PROXY=1).
// Reports errors, throughput and latency per request kind, then counts the stored rows
// against the finishes the server acknowledged. A benchmark: it reports, it does not fail.
import path from "node:path";
import Database from "better-sqlite3";
import { codeInMailbox } from "./bench-cookies.mjs";
import { grantPlan } from "./seed-entitlement.mjs";

const MEMBERS = Number(process.env.LOAD_MEMBERS ?? 200);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const PLAN = "clear-healthy-skin";
const STEPS = 6;
const DAY_MS = 86_400_000;
const PASSWORD = "load-test-password-1";

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
}

/** One simulated member: its own address and cookies, and the day it is living. */
class Member {
  constructor(base, index) {
    this.base = base;
    this.email = `load-${index}-${Date.now()}@glowcoach.test`;
    this.address = `10.${(index >> 8) & 255}.${index & 255}.7`;
    this.cookies = new Map();
    this.day = 0;
  }

  async request(kind, pathname, { form, expect }, record) {
    const started = performance.now();
    let outcome;
    try {
      const response = await fetch(`${this.base}${pathname}`, {
        method: form === undefined ? "GET" : "POST",
        body: form === undefined ? undefined : new URLSearchParams(form).toString(),
        redirect: "manual",
        headers: {
          ...(form === undefined ? {} : { "Content-Type": "application/x-www-form-urlencoded" }),
          Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
          "X-Forwarded-For": this.address,
          "X-Test-Clock-Offset-Ms": String(this.day * DAY_MS),
        },
      });
      await response.arrayBuffer();
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const at = pair.indexOf("=");
        const value = pair.slice(at + 1);
        if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(pair.slice(0, at));
        else this.cookies.set(pair.slice(0, at), value);
      }
      const location = response.headers.get("location") ?? "";
      outcome = response.status === expect.status && (!expect.location || location === expect.location) ? "ok" : `${response.status} ${location}`.trim();
    } catch (error) {
      outcome = `network error: ${error.cause?.code ?? error.message}`;
    }
    record(kind, performance.now() - started, outcome);
    return outcome === "ok";
  }

  /** One day: sign in, home, routine, finish, log out. Resolves to whether the finish was acknowledged. */
  async oneDay(record) {
    const planPath = `/plan/${PLAN}`;
    const signedIn = await this.request(
      "sign in",
      "/login",
      {
        form: {
          intent: "password",
          email: this.email,
          password: PASSWORD,
          redirectTo: "/home",
        },
        expect: { status: 303, location: "/home" },
      },
      record,
    );
    if (!signedIn) return false;
    await this.request("GET /home", "/home", { expect: { status: 200 } }, record);
    await this.request("GET /plan", planPath, { expect: { status: 200 } }, record);
    for (let step = 1; step <= STEPS; step++) {
      await this.request(
        "complete step",
        planPath,
        {
          form: { intent: "complete-step", step: String(step) },
          expect: { status: 303 },
        },
        record,
      );
    }
    const finished = await this.request(
      "finish",
      planPath,
      {
        form: { intent: "finish", step: String(STEPS) },
        expect: { status: 303, location: "/home" },
      },
      record,
    );
    await this.logOut(record);
    return finished;
  }

  async logOut(record) {
    await this.request("log out", "/logout", { form: {}, expect: { status: 303 } }, record);
    this.cookies.delete("gc_session");
  }
}

export async function benchLoad({ base, dataDir }) {
  const members = Array.from({ length: MEMBERS }, (_, i) => new Member(base, i));
  // Accounts first, through the registration form (scrypt hashing included) and the code from
  // the confirmation e-mail, a few at a time.
  const ignore = () => {};
  for (let i = 0; i < members.length; i += 20) {
    await Promise.all(
      members.slice(i, i + 20).map(async (member) => {
        const ok = await member.request(
          "register",
          "/registration",
          {
            form: {
              name: "Load Member",
              email: member.email,
              password: PASSWORD,
              confirmPassword: PASSWORD,
            },
            expect: { status: 303 },
          },
          ignore,
        );
        if (!ok) throw new Error(`registering ${member.email} failed`);
        // Signing up opens no session: the e-mail's code confirms the address (and keeps the password).
        const confirmed = await member.request(
          "confirm",
          "/login/check-email",
          { form: { code: codeInMailbox(dataDir, member.email) }, expect: { status: 303 } },
          ignore,
        );
        if (!confirmed) throw new Error(`confirming ${member.email} failed`);
        await member.logOut(ignore);
      }),
    );
  }

  // Each member has bought the plan (the player is for members who own it).
  const writer = new Database(path.join(dataDir, "glow-coach.db"), { timeout: 10_000 });
  try {
    for (const member of members) {
      const row = writer.prepare(`SELECT "id" FROM "User" WHERE "email" = ?`).get(member.email);
      grantPlan(writer, row.id, PLAN);
    }
  } finally {
    writer.close();
  }

  const latencies = new Map();
  const failures = new Map();
  const record = (kind, ms, outcome) => {
    if (!latencies.has(kind)) latencies.set(kind, []);
    latencies.get(kind).push(ms);
    if (outcome !== "ok") failures.set(`${kind}: ${outcome}`, (failures.get(`${kind}: ${outcome}`) ?? 0) + 1);
  };
  let acknowledged = 0;
  let loops = 0;
  const endAt = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    members.map(async (member) => {
      while (performance.now() < endAt) {
        member.day += 1;
        if (await member.oneDay(record)) acknowledged += 1;
        loops += 1;
      }
    }),
  );
  const wallSeconds = (performance.now() - started) / 1000;

  const db = new Database(path.join(dataDir, "glow-coach.db"), {
    readonly: true,
  });
  // Only this section's members: the routine section may have run on the same database.
  const stored = db
    .prepare(`SELECT COUNT(*) AS n FROM "PlanCompletion" c JOIN "User" u ON u."id" = c."userId" WHERE c."planId" = ? AND u."email" LIKE 'load-%'`)
    .get(PLAN).n;
  const integrity = db.pragma("integrity_check", { simple: true });
  db.close();

  const all = [...latencies.values()].flat().sort((a, b) => a - b);
  console.log(`\n## Load: ${MEMBERS} members at once for ${SECONDS} s (sign in → home → routine → finish → log out, one day per loop)\n`);
  console.log("| request | count | p50 ms | p99 ms | max ms |");
  console.log("|---|---:|---:|---:|---:|");
  for (const [kind, values] of [...latencies, ["all requests", all]]) {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(`| ${kind} | ${sorted.length} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} | ${sorted.at(-1).toFixed(1)} |`);
  }
  const errors = [...failures.values()].reduce((a, b) => a + b, 0);
  console.log(
    `\n${all.length} requests in ${wallSeconds.toFixed(1)} s: ${(all.length / wallSeconds).toFixed(0)} requests/s, ${(loops / wallSeconds).toFixed(
      1,
    )} member-days/s (${loops} in all)`,
  );
  console.log(`Errors: ${errors}${errors ? ` (${[...failures].map(([k, v]) => `${v}× ${k}`).join("; ")})` : ""}`);
  console.log(
    `Finishes acknowledged: ${acknowledged}; PlanCompletion rows stored: ${stored}: ${
      stored === acknowledged ? "nothing lost, nothing doubled" : "MISMATCH"
    }; integrity_check: ${integrity}`,
  );
}
