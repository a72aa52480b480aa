import { afterEach, describe, expect, it } from "vitest";
import { randomSecret } from "~/auth/crypto.server";
import { claimCode, claimLink, inspectLink, issueLoginToken } from "~/auth/login-tokens.server";
import { signInEmailLimits, tryAcquire } from "~/auth/rate-limit.server";
import { setClockOffset } from "./clock";

let n = 0;
const address = () => `person${n++}-${Date.now()}@example.com`;

describe("sign-in links", () => {
  afterEach(() => setClockOffset(0));

  it("work once", async () => {
    const email = address();
    const secret = randomSecret();
    await issueLoginToken({ email, secret });
    expect(await inspectLink(secret)).toEqual({ state: "valid", email, purpose: "sign-in" });
    expect(await claimLink(secret, email)).toMatchObject({ ok: true, email });
    expect(await claimLink(secret, email)).toEqual({ ok: false, state: "used" });
    expect(await inspectLink(secret)).toEqual({ state: "used", email, purpose: "sign-in" });
  });

  it("are replaced by a newer link", async () => {
    const email = address();
    const older = randomSecret();
    const newer = randomSecret();
    await issueLoginToken({ email, secret: older });
    await issueLoginToken({ email, secret: newer });
    expect((await inspectLink(older)).state).toBe("superseded");
    expect(await claimLink(older, email)).toEqual({ ok: false, state: "superseded" });
    expect(await claimLink(newer, email)).toMatchObject({ ok: true });
  });

  it("expire after 15 minutes", async () => {
    const email = address();
    const secret = randomSecret();
    await issueLoginToken({ email, secret });
    setClockOffset(14 * 60_000);
    expect((await inspectLink(secret)).state).toBe("valid");
    setClockOffset(15 * 60_000 + 1000);
    expect((await inspectLink(secret)).state).toBe("expired");
    expect(await claimLink(secret, email)).toEqual({ ok: false, state: "expired" });
  });

  it("are malformed when unknown, cut short, or for another address", async () => {
    expect((await inspectLink("short")).state).toBe("malformed");
    expect((await inspectLink(randomSecret())).state).toBe("malformed");
    expect((await inspectLink(null)).state).toBe("malformed");
    const email = address();
    const secret = randomSecret();
    await issueLoginToken({ email, secret });
    expect(await claimLink(secret, "someone-else@example.com")).toEqual({ ok: false, state: "malformed" });
  });

  it("sign in exactly one of many simultaneous clicks", async () => {
    const email = address();
    const secret = randomSecret();
    await issueLoginToken({ email, secret });
    const results = await Promise.all(Array.from({ length: 12 }, () => claimLink(secret, email)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });
});

describe("sign-in codes", () => {
  afterEach(() => setClockOffset(0));

  it("sign in once with the newest link's code, whatever the spacing or case", async () => {
    const email = address();
    const { code } = await issueLoginToken({ email, secret: randomSecret(), redirectTo: "/plan/x" });
    const typed = `${code.slice(0, 3).toLowerCase()} ${code.slice(3)}`;
    expect(await claimCode(email, typed)).toEqual({ ok: true, email, redirectTo: "/plan/x", registration: null });
    expect(await claimCode(email, code)).toEqual({ ok: false, state: "used" });
  });

  it("stop working after five wrong guesses, while the link in the same e-mail keeps working", async () => {
    const email = address();
    const secret = randomSecret();
    const { code } = await issueLoginToken({ email, secret });
    const wrong = code === "AAAAAA" ? "BBBBBB" : "AAAAAA";
    for (let left = 4; left >= 0; left--) expect(await claimCode(email, wrong)).toEqual({ ok: false, state: "wrong-code", attemptsLeft: left });
    // Whoever typed them (anyone who asked for a link to this address can), the mailbox's link still signs in.
    expect(await claimCode(email, code)).toEqual({ ok: false, state: "code-retired" });
    expect(await claimLink(secret, email)).toMatchObject({ ok: true, email });
  });

  it("count wrong guesses sent at once, so a burst cannot buy more than five", async () => {
    const email = address();
    const { code } = await issueLoginToken({ email, secret: randomSecret() });
    const wrong = code === "AAAAAA" ? "BBBBBB" : "AAAAAA";
    const results = await Promise.all(Array.from({ length: 8 }, () => claimCode(email, wrong)));
    expect(results.every((r) => !r.ok)).toBe(true);
    // Every guess was counted: the link is retired and the right code no longer signs in.
    expect(await claimCode(email, code)).toMatchObject({ ok: false });
  });

  it("of an older link don't work", async () => {
    const email = address();
    const { code } = await issueLoginToken({ email, secret: randomSecret() });
    const { code: newer } = await issueLoginToken({ email, secret: randomSecret() });
    if (code !== newer) expect((await claimCode(email, code)).ok).toBe(false);
    expect((await claimCode(email, newer)).ok).toBe(true);
  });
});

describe("rate limits", () => {
  afterEach(() => setClockOffset(0));

  it("allow 5 sign-in e-mails per address and requester an hour, then say when to try again", async () => {
    const email = address();
    const stranger = `10.0.1.${n}`;
    for (let i = 0; i < 5; i++) expect(await tryAcquire(signInEmailLimits(email, stranger))).toEqual({ ok: true });
    const blocked = await tryAcquire(signInEmailLimits(email, stranger));
    expect(blocked.ok).toBe(false);
    // Someone else asking for the same address (its owner, say) is not locked out by the stranger.
    expect(await tryAcquire(signInEmailLimits(email, `10.0.2.${n}`))).toEqual({ ok: true });
    setClockOffset(61 * 60_000);
    expect(await tryAcquire(signInEmailLimits(email, stranger))).toEqual({ ok: true });
  });

  it("cap one address across requesters, so a mailbox cannot be flooded from many places", async () => {
    const email = address();
    let sent = 0;
    for (let i = 0; i < 30; i++) if ((await tryAcquire(signInEmailLimits(email, `10.9.${n}.${i}`))).ok) sent++;
    expect(sent).toBe(15);
  });

  it("count a burst of simultaneous requests exactly: five yes, the rest no; from many places, fifteen", async () => {
    const email = address();
    const requester = `10.1.0.${n++}`;
    const results = await Promise.all(Array.from({ length: 12 }, () => tryAcquire(signInEmailLimits(email, requester))));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    const other = address();
    const spread = await Promise.all(Array.from({ length: 30 }, (_, i) => tryAcquire(signInEmailLimits(other, `10.2.${n}.${i}`))));
    expect(spread.filter((r) => r.ok)).toHaveLength(15);
  });

  it("allow 20 per IP an hour across addresses", async () => {
    const ip = `192.168.1.${n++}`;
    for (let i = 0; i < 20; i++) expect((await tryAcquire(signInEmailLimits(address(), ip))).ok).toBe(true);
    expect((await tryAcquire(signInEmailLimits(address(), ip))).ok).toBe(false);
  });
});
