/**
 * Every transition of docs/decisions/0012-account-states.md: first the pure rules
 * (account-state.ts), then the same transitions through the database (sign-in.server.ts,
 * sessions, purchases), with ADMIN_EMAILS = boss@glowcoach.test (vitest.config.ts).
 */
import { describe, expect, it } from "vitest";
import { accountState, checkoutWelcome, mayOpen, passwordUsable, registrationEmail, roleAtSignIn, verifiedSignIn } from "~/auth/account-state";
import { hashPassword } from "~/auth/crypto.server";
import { currentSession, startSession } from "~/auth/session.server";
import { completeSignIn } from "~/auth/sign-in.server";
import { accountForPurchase } from "~/auth/users.server";
import { db } from "~/utils/db.server";

const ADMINS = ["boss@glowcoach.test"];
let n = 0;
const address = (label: string) => `${label}-${Date.now()}-${n++}@example.com`;

describe("account states (pure rules)", () => {
  it("an account is pending until its address is proven", () => {
    expect(accountState(null)).toBe("none");
    expect(accountState({ emailVerifiedAt: null })).toBe("pending");
    expect(accountState({ emailVerifiedAt: new Date() })).toBe("verified");
  });

  it("none → verified: the first proof creates the account, with no password", () => {
    expect(verifiedSignIn({ state: "none", email: "a@example.com", storedRole: "user", adminEmails: ADMINS })).toEqual({
      firstVerification: true,
      endOtherSessions: false,
      passwordHash: null,
      name: undefined,
      role: "user",
    });
  });

  it("pending → verified: sessions before it end and an unproven password is dropped", () => {
    expect(verifiedSignIn({ state: "pending", email: "a@example.com", storedRole: "user", adminEmails: ADMINS })).toMatchObject({
      firstVerification: true,
      endOtherSessions: true,
      passwordHash: null,
    });
  });

  it("pending → verified with a registration confirmed in its own browser: its password and name apply", () => {
    const confirmedRegistration = { passwordHash: "scrypt$new", name: "Ada" };
    expect(verifiedSignIn({ state: "pending", email: "a@example.com", storedRole: "user", adminEmails: ADMINS, confirmedRegistration })).toMatchObject({
      firstVerification: true,
      passwordHash: "scrypt$new",
      name: "Ada",
    });
  });

  it("verified → verified: a later sign-in keeps the password and sessions; a registration's password no longer applies", () => {
    const later = verifiedSignIn({
      state: "verified",
      email: "a@example.com",
      storedRole: "user",
      adminEmails: ADMINS,
      confirmedRegistration: { passwordHash: "x", name: "Eve" },
    });
    expect(later).toEqual({ firstVerification: false, endOtherSessions: false, passwordHash: undefined, name: undefined, role: "user" });
  });

  it("ADMIN_EMAILS grants admin at a verified sign-in; the stored role stays otherwise", () => {
    expect(roleAtSignIn("boss@glowcoach.test", "user", ADMINS)).toBe("admin");
    expect(roleAtSignIn("a@example.com", "admin", ADMINS)).toBe("admin");
    expect(roleAtSignIn("a@example.com", "user", ADMINS)).toBe("user");
  });

  it("registering: a confirmation e-mail unless the address is verified, then a note to its owner", () => {
    expect(registrationEmail("none")).toBe("confirm-registration");
    expect(registrationEmail("pending")).toBe("confirm-registration");
    expect(registrationEmail("verified")).toBe("account-exists");
  });

  it("a password opens only a verified account that has one", () => {
    expect(passwordUsable(null)).toBe(false);
    expect(passwordUsable({ emailVerifiedAt: null, passwordHash: "scrypt$x" })).toBe(false);
    expect(passwordUsable({ emailVerifiedAt: new Date(), passwordHash: null })).toBe(false);
    expect(passwordUsable({ emailVerifiedAt: new Date(), passwordHash: "scrypt$x" })).toBe(true);
  });

  it("a paid checkout: a purchase session only for an unverified address and a browser not signed in to another account", () => {
    const buyerId = "buyer";
    expect(checkoutWelcome({ account: "pending", browserSession: null, buyerId })).toBe("purchase-session");
    expect(checkoutWelcome({ account: "pending", browserSession: { kind: "purchase", userId: buyerId }, buyerId })).toBe("purchase-session");
    expect(checkoutWelcome({ account: "pending", browserSession: { kind: "full", userId: "someone-else" }, buyerId })).toBe("sign-in-by-link");
    expect(checkoutWelcome({ account: "verified", browserSession: null, buyerId })).toBe("sign-in-by-link");
    expect(checkoutWelcome({ account: "verified", browserSession: { kind: "purchase", userId: "someone-else" }, buyerId })).toBe("sign-in-by-link");
    expect(checkoutWelcome({ account: "verified", browserSession: { kind: "full", userId: buyerId }, buyerId })).toBe("already-signed-in");
  });

  it("what each session kind may open", () => {
    const member = { kind: "full", role: "user" } as const;
    const admin = { kind: "full", role: "admin" } as const;
    const buyer = { kind: "purchase", role: "user" } as const;
    for (const area of ["home", "routine", "tutorial", "profile", "billing"] as const) expect(mayOpen(member, area)).toBe(true);
    expect(mayOpen(member, "admin")).toBe(false);
    expect(mayOpen(admin, "admin")).toBe(true);
    expect(mayOpen(buyer, "home")).toBe(true);
    expect(mayOpen(buyer, "routine", true)).toBe(true);
    expect(mayOpen(buyer, "routine", false)).toBe(false);
    for (const area of ["tutorial", "profile", "billing", "admin"] as const) expect(mayOpen({ kind: "purchase", role: "admin" }, area, true)).toBe(false);
  });
});

describe("account transitions in the database", () => {
  const sessionOf = async (cookie: string) => currentSession(new Request("http://localhost/", { headers: { Cookie: cookie.split(";")[0] } }));

  it("a purchase creates a pending account (never verified, never admin), and its purchase session is a session for the routine only", async () => {
    const account = await accountForPurchase(" Boss@GlowCoach.test ");
    expect(account.email).toBe("boss@glowcoach.test");
    const row = await db.user.findUniqueOrThrow({ where: { id: account.id } });
    if (!row.emailVerifiedAt) expect(row.role).toBe("user");
    const email = address("buyer");
    const buyer = await accountForPurchase(email);
    expect(buyer.emailVerifiedAt).toBeNull();
    const session = await sessionOf(await startSession(buyer.id, "purchase", "cs_local_unit"));
    expect(session).toMatchObject({ kind: "purchase", checkoutSessionId: "cs_local_unit", user: { email } });
    // A full session on an unverified account is no session.
    expect(await sessionOf(await startSession(buyer.id, "full"))).toBeNull();
  });

  it("the first verification ends every earlier session, drops an unproven password and applies ADMIN_EMAILS", async () => {
    const email = "boss@glowcoach.test";
    await db.user.deleteMany({ where: { email } });
    const pending = await accountForPurchase(email);
    await db.user.update({ where: { id: pending.id }, data: { passwordHash: await hashPassword("set-before-proof") } });
    const buyerCookie = await startSession(pending.id, "purchase", "cs_local_a");
    const otherCookie = await startSession(pending.id, "purchase", "cs_local_b");
    expect((await db.user.findUniqueOrThrow({ where: { id: pending.id } })).role).toBe("user");

    const signed = await completeSignIn({ email, proof: "email-link" });
    expect(signed.firstVerification).toBe(true);
    expect(signed.user).toMatchObject({ id: pending.id, role: "admin" });
    const row = await db.user.findUniqueOrThrow({ where: { id: pending.id } });
    expect(row.emailVerifiedAt).not.toBeNull();
    expect(row.passwordHash).toBeNull();
    expect(await sessionOf(buyerCookie)).toBeNull();
    expect(await sessionOf(otherCookie)).toBeNull();
    expect(await sessionOf(signed.sessionCookie)).toMatchObject({ kind: "full", user: { role: "admin" } });

    // A later verification ends nothing.
    const again = await completeSignIn({ email, proof: "email-code" });
    expect(again.firstVerification).toBe(false);
    expect(await sessionOf(signed.sessionCookie)).not.toBeNull();
    expect(await db.session.count({ where: { userId: pending.id } })).toBe(2);
  });

  it("a registration confirmed in its own browser sets the password and name; a password alone never verifies", async () => {
    const email = address("registered");
    await expect(completeSignIn({ email, proof: "password" })).rejects.toThrow(/unverified/);
    const passwordHash = await hashPassword("rosewater-2026");
    const signed = await completeSignIn({ email, proof: "email-code", confirmedRegistration: { passwordHash, name: "Ada Glow" } });
    expect(signed.firstVerification).toBe(true);
    expect(await db.user.findUniqueOrThrow({ where: { email } })).toMatchObject({ passwordHash, name: "Ada Glow" });
    // Now the password is the account's: signing in with it is a later sign-in.
    expect((await completeSignIn({ email, proof: "password" })).firstVerification).toBe(false);
  });

  it("Google vouching for an address verifies it and links the Google id", async () => {
    const email = address("google");
    const pending = await accountForPurchase(email);
    const purchase = await startSession(pending.id, "purchase", "cs_local_g");
    const signed = await completeSignIn({ email, proof: "google", googleId: `g-${n++}`, googleName: "Grace" });
    expect(signed.firstVerification).toBe(true);
    expect(await sessionOf(purchase)).toBeNull();
    const row = await db.user.findUniqueOrThrow({ where: { email } });
    expect(row.googleId).toBeTruthy();
    expect(row.emailVerifiedAt).not.toBeNull();
    // Next time Google is found by its id.
    expect((await completeSignIn({ email: "changed-at-google@example.com", proof: "google", googleId: row.googleId! })).user.id).toBe(row.id);
  });

  it("two first sign-ins for a new address at once make one verified account", async () => {
    const email = address("race");
    const results = await Promise.all([completeSignIn({ email, proof: "email-link" }), completeSignIn({ email, proof: "email-code" })]);
    expect(new Set(results.map((r) => r.user.id)).size).toBe(1);
    expect(results.filter((r) => r.firstVerification)).toHaveLength(1);
    expect(await db.user.count({ where: { email } })).toBe(1);
  });
});
