/**
 * Accounts belong to whoever holds the e-mail: each attack here was tried against the app
 * and must keep failing. Request-level (one project is enough): the attacker is a script.
 */
import { expect, test } from "@playwright/test";
import { uniqueEmail } from "./accounts";
import { buyWithEmail, isSignedIn, newActor, postCode, postPasswordSignIn, postRegistration, requestLink, signInByLink, spendLink } from "./actors";
import { codeFrom, E2E_MAIL_DIR, signInLinkFrom, waitForEmail } from "./mail-server";

/** In ADMIN_EMAILS (playwright.config.ts) and used by no other test. */
const ADMIN_ADDRESS = "owner-claim@glowcoach.test";

test("registering an ADMIN_EMAILS address gives no session and no admin; the mailbox owner gets admin by verifying", async ({ browser }, testInfo) => {
  const attacker = await newActor(browser, testInfo);
  const registered = await postRegistration(attacker.request, { email: ADMIN_ADDRESS, password: "attacker-pass-1" });
  expect(registered.status()).toBe(303);
  expect(await isSignedIn(attacker.request)).toBe(false);
  const admin = await attacker.request.get("/admin", { maxRedirects: 0 });
  expect(admin.status()).toBe(302);
  expect(admin.headers().location).toMatch(/^\/login/);

  // The owner of the mailbox signs in by link: now the address is verified and admin applies.
  const owner = await newActor(browser, testInfo);
  await signInByLink(owner.request, ADMIN_ADDRESS);
  expect((await owner.request.get("/admin", { maxRedirects: 0 })).status()).toBe(200);
  // The attacker's password was never the account's.
  const tried = await postPasswordSignIn(attacker.request, ADMIN_ADDRESS, "attacker-pass-1");
  expect(tried.status()).toBe(400);
  expect(await isSignedIn(attacker.request)).toBe(false);
  await Promise.all([attacker.context.close(), owner.context.close()]);
});

test("a password set by someone else before the owner came never opens the owner's account", async ({ browser }, testInfo) => {
  const victim = uniqueEmail("preregistered", testInfo);
  const attacker = await newActor(browser, testInfo);
  expect((await postRegistration(attacker.request, { email: victim, password: "attacker-pass-2" })).status()).toBe(303);
  expect(await isSignedIn(attacker.request)).toBe(false);
  // The attacker's own browser holds the registration, but only the mailbox has the code.
  const confirmation = await waitForEmail(E2E_MAIL_DIR, victim);

  // The victim signs in by link later (a newer link replaces the attacker's registration e-mail).
  const owner = await newActor(browser, testInfo);
  await signInByLink(owner.request, victim);
  expect(await isSignedIn(owner.request)).toBe(true);

  // Neither the password, nor the old registration e-mail's code, opens the account for the attacker.
  expect((await postPasswordSignIn(attacker.request, victim, "attacker-pass-2")).status()).toBe(400);
  expect((await postCode(attacker.request, confirmation)).status()).not.toBe(303);
  expect(await isSignedIn(attacker.request)).toBe(false);
  await Promise.all([attacker.context.close(), owner.context.close()]);
});

test("the owner confirming the attacker's registration e-mail in her own browser does not adopt the attacker's password", async ({ browser }, testInfo) => {
  const victim = uniqueEmail("adopted", testInfo);
  const attacker = await newActor(browser, testInfo);
  expect((await postRegistration(attacker.request, { email: victim, password: "attacker-pass-3" })).status()).toBe(303);
  const confirmation = await waitForEmail(E2E_MAIL_DIR, victim);
  // The victim, puzzled, presses the link in her mailbox.
  const owner = await newActor(browser, testInfo);
  expect((await spendLink(owner.request, signInLinkFrom(confirmation))).status()).toBe(303);
  expect(await isSignedIn(owner.request)).toBe(true);
  expect((await postPasswordSignIn(attacker.request, victim, "attacker-pass-3")).status()).toBe(400);
  expect(await isSignedIn(attacker.request)).toBe(false);
  await Promise.all([attacker.context.close(), owner.context.close()]);
});

test("a checkout typed with someone else's address keeps no session once the owner verifies", async ({ browser }, testInfo) => {
  const victim = uniqueEmail("checkout-victim", testInfo);
  const attacker = await newActor(browser, testInfo);
  await buyWithEmail(attacker.request, victim);
  // The buyer may use what was just bought, nothing that needs the account itself.
  expect((await attacker.request.get("/plan/crease-free", { maxRedirects: 0 })).status()).toBe(200);
  expect((await attacker.request.get("/profile", { maxRedirects: 0 })).headers().location).toMatch(/^\/login/);
  expect(await isSignedIn(attacker.request)).toBe(false);

  const owner = await newActor(browser, testInfo);
  await signInByLink(owner.request, victim);
  // Verification ended every session opened before it: the buyer's browser is signed out.
  const home = await attacker.request.get("/plan/crease-free", { maxRedirects: 0 });
  expect(home.status()).toBe(302);
  expect(home.headers().location).toMatch(/^\/login/);
  const profile = await owner.request.get("/profile", { maxRedirects: 0 });
  expect(profile.status()).toBe(200);
  await Promise.all([attacker.context.close(), owner.context.close()]);
});

test("a checkout typed with an already verified address never signs the buyer in", async ({ browser }, testInfo) => {
  const member = uniqueEmail("verified-buyer", testInfo);
  const owner = await newActor(browser, testInfo);
  await signInByLink(owner.request, member);
  const stranger = await newActor(browser, testInfo);
  const { answer } = await buyWithEmail(stranger.request, member);
  expect(answer.headers()["set-cookie"] ?? "").not.toContain("gc_session=");
  expect((await stranger.request.get("/plan/crease-free", { maxRedirects: 0 })).status()).toBe(302);
  expect(await isSignedIn(stranger.request)).toBe(false);
  await Promise.all([stranger.context.close(), owner.context.close()]);
});

test("registering an existing address answers exactly as a new one, and e-mails the owner instead", async ({ browser }, testInfo) => {
  const existing = uniqueEmail("existing", testInfo);
  const owner = await newActor(browser, testInfo);
  await signInByLink(owner.request, existing);

  const visitor = await newActor(browser, testInfo);
  await visitor.request.get("/registration"); // a returning visitor: both posts carry the same cookies
  const fresh = await postRegistration(visitor.request, { email: uniqueEmail("fresh", testInfo), password: "rosewater-2026" });
  const sentAfter = new Date(Date.now() - 500);
  const taken = await postRegistration(visitor.request, { email: existing, password: "rosewater-2026" });
  expect(taken.status()).toBe(fresh.status());
  expect(taken.headers().location).toBe(fresh.headers().location);
  const cookieNames = (answer: typeof fresh) =>
    answer
      .headersArray()
      .filter((h) => h.name.toLowerCase() === "set-cookie")
      .map((h) => h.value.split("=")[0])
      .sort();
  expect(cookieNames(taken)).toEqual(cookieNames(fresh));
  // The owner hears about it; nothing about her account changes.
  const notice = await waitForEmail(E2E_MAIL_DIR, existing, { after: sentAfter });
  expect(notice.text).toContain("already have");
  expect(await isSignedIn(owner.request)).toBe(true);
  await Promise.all([visitor.context.close(), owner.context.close()]);
});

test("a link's id and token must come from the same e-mail", async ({ browser }, testInfo) => {
  const alice = uniqueEmail("mix-a", testInfo);
  const bob = uniqueEmail("mix-b", testInfo);
  const actor = await newActor(browser, testInfo);
  const linkA = new URL(signInLinkFrom(await requestLink(actor.request, alice)));
  const linkB = new URL(signInLinkFrom(await requestLink(actor.request, bob)));
  const mixed = { id: linkA.searchParams.get("id")!, token: linkB.searchParams.get("token")! };

  const opened = await actor.request.get(`/magic?${new URLSearchParams(mixed)}`);
  expect(opened.status()).toBe(400);
  const pressed = await spendLink(actor.request, linkA.href, mixed);
  expect(pressed.status()).toBe(400);
  expect(await isSignedIn(actor.request)).toBe(false);
  // Both real links still work.
  for (const link of [linkA, linkB]) {
    const other = await newActor(browser, testInfo);
    expect((await spendLink(other.request, link.href)).status()).toBe(303);
    await other.context.close();
  }
  await actor.context.close();
});

test("five link requests by a stranger don't lock the owner out of e-mail sign-in", async ({ browser }, testInfo) => {
  const owner = uniqueEmail("lockout", testInfo);
  const stranger = await newActor(browser, testInfo);
  for (let i = 0; i < 5; i++) await requestLink(stranger.request, owner);
  const sixth = await stranger.request.post("/login", { form: { intent: "email-link", email: owner }, maxRedirects: 0 });
  expect(sixth.status()).toBe(429);

  const self = await newActor(browser, testInfo);
  const mail = await requestLink(self.request, owner);
  expect((await spendLink(self.request, signInLinkFrom(mail))).status()).toBe(303);
  expect(await isSignedIn(self.request)).toBe(true);
  await Promise.all([stranger.context.close(), self.context.close()]);
});

test("wrong codes typed by a stranger don't spend the owner's link", async ({ browser }, testInfo) => {
  const owner = uniqueEmail("code-lockout", testInfo);
  const stranger = await newActor(browser, testInfo);
  const mail = await requestLink(stranger.request, owner);
  const wrong = codeFrom(mail) === "AAAAAA" ? "BBBBBB" : "AAAAAA";
  for (let i = 0; i < 6; i++) {
    const answer = await stranger.request.post("/login/check-email", { form: { code: wrong }, maxRedirects: 0 });
    expect(answer.status()).toBeGreaterThanOrEqual(400);
  }
  // The code from the mailbox no longer works after five wrong tries, but the link does.
  expect((await postCode(stranger.request, mail)).status()).not.toBe(303);
  const self = await newActor(browser, testInfo);
  expect((await spendLink(self.request, signInLinkFrom(mail))).status()).toBe(303);
  expect(await isSignedIn(self.request)).toBe(true);
  await Promise.all([stranger.context.close(), self.context.close()]);
});
