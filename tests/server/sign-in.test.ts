/**
 * Sign-in by plain HTTP against one server for the file, with its own SMTP server (the real
 * e-mails, their links and codes) and OpenID server (Google's round trip):
 * - redirects stay on our origin: every route that redirects to a target it was given is walked
 *   with the same corpus of tricky values as the unit test of safeRedirect();
 * - accounts belong to whoever holds the e-mail: each attack here was tried against the app and
 *   must keep failing. The attacker is a script: no browser needed.
 */
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { codeFrom, signInLinkFrom, waitForEmail, type ReceivedEmail } from "../e2e/mail-server";
import { REDIRECT_ATTACKS } from "../unit/redirect-corpus";
import { startAppServer, type AppServer } from "./app-server";
import { SERVER_PORTS } from "./ports";
import { killLeftovers } from "./processes";
import { Visitor, type Answer } from "./visitor";

let server: AppServer;
const visitor = () => new Visitor(server.origin);

beforeAll(async () => {
  server = await startAppServer({
    name: "sign-in",
    port: SERVER_PORTS.signIn,
    smtpPort: SERVER_PORTS.signInSmtp,
    oauthPort: SERVER_PORTS.signInOAuth,
  });
});
afterAll(async () => {
  await server?.stop();
  killLeftovers();
});

/** An address no other test uses. */
const uniqueEmail = (label: string) => `${label}-${crypto.randomBytes(4).toString("hex")}@glowcoach.test`;

const mailTo = (email: string, options?: { after?: Date; timeoutMs?: number }) => waitForEmail(server.mailDir, email, options);

/** The sign-up form, posted as a browser without JavaScript would. */
function postRegistration(person: Visitor, input: { email: string; password: string; name?: string }): Promise<Answer> {
  return person.post("/registration", {
    form: { name: input.name ?? "Ada Glow", email: input.email, password: input.password, confirmPassword: input.password },
    maxRedirects: 0,
  });
}

function postPasswordSignIn(person: Visitor, email: string, password: string, redirectTo = "/home"): Promise<Answer> {
  return person.post("/login", { form: { intent: "password", email, password, redirectTo }, maxRedirects: 0 });
}

/** Asks for a sign-in link and returns the e-mail that arrives. */
async function requestLink(person: Visitor, email: string, redirectTo = "/home"): Promise<ReceivedEmail> {
  const sentAfter = new Date(Date.now() - 1000);
  const answer = await person.post("/login", { form: { intent: "email-link", email, redirectTo }, maxRedirects: 0 });
  expect(answer.status, `sign-in link for ${email}`).toBe(303);
  return mailTo(email, { after: sentAfter });
}

/** Presses the link page's button: POST /magic with the link's token and id. */
function spendLink(person: Visitor, link: string, override: { token?: string; id?: string } = {}): Promise<Answer> {
  const url = new URL(link);
  const token = override.token ?? url.searchParams.get("token") ?? "";
  const id = override.id ?? url.searchParams.get("id") ?? "";
  return person.post(`/magic?${new URLSearchParams({ token, id })}`, { form: { token, id }, maxRedirects: 0 });
}

/** Signs `email` in through a link sent to it; returns the answer to the button press. */
async function signInByLink(person: Visitor, email: string): Promise<Answer> {
  const answer = await spendLink(person, signInLinkFrom(await requestLink(person, email)));
  expect(answer.status).toBe(303);
  return answer;
}

/** Types the code from an e-mail on the 'Check Your Email!' page of this visitor. */
function postCode(person: Visitor, mail: ReceivedEmail): Promise<Answer> {
  return person.post("/login/check-email", { form: { code: codeFrom(mail) }, maxRedirects: 0 });
}

/** Buys the crease-free routine on the local test checkout, typing `email`; ends on payment success. */
async function buyWithEmail(person: Visitor, email: string): Promise<{ successPath: string; answer: Answer }> {
  const started = await person.post("/sales", { form: { intent: "checkout", planId: "lifetime" }, maxRedirects: 0 });
  expect(started.status).toBe(303);
  const checkout = started.headers.location!;
  expect(checkout).toMatch(/^\/checkout\/test\/cs_local_/);
  const completed = await person.post(checkout, { form: { intent: "complete", email }, maxRedirects: 0 });
  expect(completed.status).toBe(303);
  const successPath = completed.headers.location!;
  expect(successPath).toMatch(/^\/payment-success\?session_id=cs_local_/);
  // The first visit welcomes the buyer (session, e-mail) and redirects to itself.
  const answer = await person.get(successPath, { maxRedirects: 0 });
  return { successPath, answer };
}

describe("redirects stay on our origin", () => {
  /** A Location that a browser resolves to a page on our own origin. */
  function expectOwnOrigin(location: string | undefined, what: string) {
    expect(location, what).toBeTruthy();
    const resolved = new URL(location!, server.origin);
    expect(resolved.origin, `${what} → ${location}`).toBe(server.origin);
    // Browsers strip tabs and newlines and treat "\" as "/": the raw header must be a plain path too.
    expect(location, what).toMatch(/^\/(?![/\\])/);
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(location, what).not.toMatch(/[\u0000-\u001f\\]/);
  }

  test("/preview/exit?path= stays on our origin", async () => {
    const person = visitor();
    for (const path of REDIRECT_ATTACKS) {
      const answer = await person.get(`/preview/exit?${new URLSearchParams({ path })}`, { maxRedirects: 0 });
      expect(answer.status, path).toBe(303);
      expectOwnOrigin(answer.headers.location, JSON.stringify(path));
    }
  });

  test("sign-in by link, by code and by password keep redirectTo on our origin", async () => {
    const actor = visitor();
    // A verified account with a password, made the way a person does: register, confirm the e-mail here.
    const email = uniqueEmail("redirect-pw");
    await postRegistration(actor, { name: "Ada", email, password: "rosewater-2026" });
    const confirmation = await mailTo(email).catch(() => null);
    if (confirmation) await spendLink(actor, signInLinkFrom(confirmation));
    actor.cookies.clear();

    for (const [i, redirectTo] of REDIRECT_ATTACKS.entries()) {
      const what = JSON.stringify(redirectTo);
      // Two sign-in e-mails per value: a client address of their own keeps under the per-address limit.
      actor.useOwnIp();
      const linkEmail = uniqueEmail(`redirect-link${i}`);
      const sentAfter = new Date(Date.now() - 500);
      await actor.post("/login", { form: { intent: "email-link", email: linkEmail, redirectTo }, maxRedirects: 0 });
      const byLink = await spendLink(actor, signInLinkFrom(await mailTo(linkEmail, { after: sentAfter })));
      expectOwnOrigin(byLink.headers.location, `link ${what}`);
      actor.cookies.clear();

      const codeEmail = uniqueEmail(`redirect-code${i}`);
      const codeAfter = new Date(Date.now() - 500);
      await actor.post("/login", { form: { intent: "email-link", email: codeEmail, redirectTo }, maxRedirects: 0 });
      const byCode = await postCode(actor, await mailTo(codeEmail, { after: codeAfter }));
      expectOwnOrigin(byCode.headers.location, `code ${what}`);
      actor.cookies.clear();

      // Password tries are limited per address (10 an hour): a sample is enough here.
      if (i % 3 === 0) {
        const byPassword = await postPasswordSignIn(actor, email, "rosewater-2026", redirectTo);
        expect(byPassword.status, `password ${what}`).toBe(303);
        expectOwnOrigin(byPassword.headers.location, `password ${what}`);
        actor.cookies.clear();
      }

      // The login page's own hidden field is cleaned the same way.
      const page = await actor.get(`/login?${new URLSearchParams({ redirectTo })}`);
      const field = /name="redirectTo" value="([^"]*)"/.exec(page.text)?.[1];
      expectOwnOrigin(field?.replace(/&amp;/g, "&"), `login page ${what}`);
    }
  });

  /** Google's round trip without a popup: /auth/google → the OpenID server → /auth/callback → redirectTo. */
  async function googleRoundTrip(person: Visitor, redirectTo: string): Promise<string | undefined> {
    let answer = await person.post("/auth/google", { form: { redirectTo, popup: "0" }, maxRedirects: 0 });
    for (let hop = 0; hop < 4 && answer.status >= 300 && answer.status < 400; hop++) {
      const next = new URL(answer.headers.location!, answer.url);
      if (next.pathname === "/auth/callback") return (await person.get(next.href, { maxRedirects: 0 })).headers.location;
      answer = await person.get(next.href, { maxRedirects: 0 });
    }
    throw new Error(`Google round trip for ${JSON.stringify(redirectTo)} ended at ${answer.status} ${answer.url}`);
  }

  test("Google sign-in keeps redirectTo on our origin", async () => {
    const actor = visitor();
    for (const redirectTo of REDIRECT_ATTACKS) {
      expectOwnOrigin(await googleRoundTrip(actor, redirectTo), `google ${JSON.stringify(redirectTo)}`);
      actor.cookies.clear();
    }
  });
});

describe("accounts belong to whoever holds the e-mail", () => {
  /** In ADMIN_EMAILS (app-server.ts) and used by no other test. */
  const ADMIN_ADDRESS = "owner-claim@glowcoach.test";

  test("registering an ADMIN_EMAILS address gives no session and no admin; the mailbox owner gets admin by verifying", async () => {
    const attacker = visitor();
    const registered = await postRegistration(attacker, { email: ADMIN_ADDRESS, password: "attacker-pass-1" });
    expect(registered.status).toBe(303);
    expect(await attacker.isSignedIn()).toBe(false);
    const admin = await attacker.get("/admin", { maxRedirects: 0 });
    expect(admin.status).toBe(302);
    expect(admin.headers.location).toMatch(/^\/login/);

    // The owner of the mailbox signs in by link: now the address is verified and admin applies.
    const owner = visitor();
    await signInByLink(owner, ADMIN_ADDRESS);
    expect((await owner.get("/admin", { maxRedirects: 0 })).status).toBe(200);
    // The attacker's password was never the account's.
    const tried = await postPasswordSignIn(attacker, ADMIN_ADDRESS, "attacker-pass-1");
    expect(tried.status).toBe(400);
    expect(await attacker.isSignedIn()).toBe(false);
  });

  test("a password set by someone else before the owner came never opens the owner's account", async () => {
    const victim = uniqueEmail("preregistered");
    const attacker = visitor();
    expect((await postRegistration(attacker, { email: victim, password: "attacker-pass-2" })).status).toBe(303);
    expect(await attacker.isSignedIn()).toBe(false);
    // The attacker's own browser holds the registration, but only the mailbox has the code.
    const confirmation = await mailTo(victim);

    // The victim signs in by link later (a newer link replaces the attacker's registration e-mail).
    const owner = visitor();
    await signInByLink(owner, victim);
    expect(await owner.isSignedIn()).toBe(true);

    // Neither the password, nor the old registration e-mail's code, opens the account for the attacker.
    expect((await postPasswordSignIn(attacker, victim, "attacker-pass-2")).status).toBe(400);
    expect((await postCode(attacker, confirmation)).status).not.toBe(303);
    expect(await attacker.isSignedIn()).toBe(false);
  });

  test("the owner confirming the attacker's registration e-mail in her own browser does not adopt the attacker's password", async () => {
    const victim = uniqueEmail("adopted");
    const attacker = visitor();
    expect((await postRegistration(attacker, { email: victim, password: "attacker-pass-3" })).status).toBe(303);
    const confirmation = await mailTo(victim);
    // The victim, puzzled, presses the link in her mailbox.
    const owner = visitor();
    expect((await spendLink(owner, signInLinkFrom(confirmation))).status).toBe(303);
    expect(await owner.isSignedIn()).toBe(true);
    expect((await postPasswordSignIn(attacker, victim, "attacker-pass-3")).status).toBe(400);
    expect(await attacker.isSignedIn()).toBe(false);
  });

  test("a checkout typed with someone else's address keeps no session once the owner verifies", async () => {
    const victim = uniqueEmail("checkout-victim");
    const attacker = visitor();
    await buyWithEmail(attacker, victim);
    // The buyer may use what was just bought, nothing that needs the account itself.
    expect((await attacker.get("/plan/crease-free", { maxRedirects: 0 })).status).toBe(200);
    expect((await attacker.get("/profile", { maxRedirects: 0 })).headers.location).toMatch(/^\/login/);
    expect(await attacker.isSignedIn()).toBe(false);

    const owner = visitor();
    await signInByLink(owner, victim);
    // Verification ended every session opened before it: the buyer's browser is signed out.
    const home = await attacker.get("/plan/crease-free", { maxRedirects: 0 });
    expect(home.status).toBe(302);
    expect(home.headers.location).toMatch(/^\/login/);
    const profile = await owner.get("/profile", { maxRedirects: 0 });
    expect(profile.status).toBe(200);
  });

  test("a checkout typed with an already verified address never signs the buyer in", async () => {
    const member = uniqueEmail("verified-buyer");
    const owner = visitor();
    await signInByLink(owner, member);
    const stranger = visitor();
    const { answer } = await buyWithEmail(stranger, member);
    expect(answer.setCookies.join("\n")).not.toContain("gc_session=");
    expect((await stranger.get("/plan/crease-free", { maxRedirects: 0 })).status).toBe(302);
    expect(await stranger.isSignedIn()).toBe(false);
  });

  test("registering an existing address answers exactly as a new one, and e-mails the owner instead", async () => {
    const existing = uniqueEmail("existing");
    const owner = visitor();
    await signInByLink(owner, existing);

    const returning = visitor();
    await returning.get("/registration"); // a returning visitor: both posts carry the same cookies
    const fresh = await postRegistration(returning, { email: uniqueEmail("fresh"), password: "rosewater-2026" });
    const sentAfter = new Date(Date.now() - 500);
    const taken = await postRegistration(returning, { email: existing, password: "rosewater-2026" });
    expect(taken.status).toBe(fresh.status);
    expect(taken.headers.location).toBe(fresh.headers.location);
    const cookieNames = (answer: Answer) => answer.setCookies.map((line) => line.split("=")[0]).sort();
    expect(cookieNames(taken)).toEqual(cookieNames(fresh));
    // The owner hears about it; nothing about her account changes.
    const notice = await mailTo(existing, { after: sentAfter });
    expect(notice.text).toContain("already have");
    expect(await owner.isSignedIn()).toBe(true);
  });

  test("a link's id and token must come from the same e-mail", async () => {
    const alice = uniqueEmail("mix-a");
    const bob = uniqueEmail("mix-b");
    const actor = visitor();
    const linkA = new URL(signInLinkFrom(await requestLink(actor, alice)));
    const linkB = new URL(signInLinkFrom(await requestLink(actor, bob)));
    const mixed = { id: linkA.searchParams.get("id")!, token: linkB.searchParams.get("token")! };

    const opened = await actor.get(`/magic?${new URLSearchParams(mixed)}`);
    expect(opened.status).toBe(400);
    const pressed = await spendLink(actor, linkA.href, mixed);
    expect(pressed.status).toBe(400);
    expect(await actor.isSignedIn()).toBe(false);
    // Both real links still work.
    for (const link of [linkA, linkB]) expect((await spendLink(visitor(), link.href)).status).toBe(303);
  });

  test("five link requests by a stranger don't lock the owner out of e-mail sign-in", async () => {
    const owner = uniqueEmail("lockout");
    const stranger = visitor();
    for (let i = 0; i < 5; i++) await requestLink(stranger, owner);
    const sixth = await stranger.post("/login", { form: { intent: "email-link", email: owner }, maxRedirects: 0 });
    expect(sixth.status).toBe(429);

    const self = visitor();
    const mail = await requestLink(self, owner);
    expect((await spendLink(self, signInLinkFrom(mail))).status).toBe(303);
    expect(await self.isSignedIn()).toBe(true);
  });

  test("wrong codes typed by a stranger don't spend the owner's link", async () => {
    const owner = uniqueEmail("code-lockout");
    const stranger = visitor();
    const mail = await requestLink(stranger, owner);
    const wrong = codeFrom(mail) === "AAAAAA" ? "BBBBBB" : "AAAAAA";
    for (let i = 0; i < 6; i++) {
      const answer = await stranger.post("/login/check-email", { form: { code: wrong }, maxRedirects: 0 });
      expect(answer.status).toBeGreaterThanOrEqual(400);
    }
    // The code from the mailbox no longer works after five wrong tries, but the link does.
    expect((await postCode(stranger, mail)).status).not.toBe(303);
    const self = visitor();
    expect((await spendLink(self, signInLinkFrom(mail))).status).toBe(303);
    expect(await self.isSignedIn()).toBe(true);
  });
});
