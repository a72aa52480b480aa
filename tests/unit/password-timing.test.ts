/**
 * Password sign-in must not tell an attacker whether an address has an account (or a
 * password) by how long it takes: every attempt does the same scrypt work. Checked by what
 * runs, not by a stopwatch (the machine's load would make a timed test flaky): each attempt
 * verifies the password exactly once, against a hash made with the same scrypt parameters.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import * as passwordHashing from "~/auth/crypto.server";
import { signInWithPassword } from "~/auth/login.server";
import { db } from "~/utils/db.server";

const { hashPassword } = passwordHashing;
// Every scrypt check the sign-in runs, with the hash it checked against (calls go through).
const verifications = vi.spyOn(passwordHashing, "verifyPassword");
const verified = () => verifications.mock.calls.map(([, stored]) => stored);

const SCRYPT_PARAMS = /^scrypt\$16384\$8\$1\$/;

describe("password sign-in timing", () => {
  afterAll(() => {
    verifications.mockRestore();
  });

  it("runs one full scrypt check for an unknown address, an account without a password, an unverified one and a wrong password alike", async () => {
    const stamp = Date.now();
    const withPassword = `timed-pw-${stamp}@example.com`;
    const withoutPassword = `timed-nopw-${stamp}@example.com`;
    const unverified = `timed-unverified-${stamp}@example.com`;
    await db.user.create({ data: { email: withPassword, passwordHash: await hashPassword("the-right-one"), emailVerifiedAt: new Date() } });
    await db.user.create({ data: { email: withoutPassword, emailVerifiedAt: new Date() } });
    await db.user.create({ data: { email: unverified, passwordHash: await hashPassword("the-right-one") } });

    let ip = 0;
    for (const email of [withPassword, withoutPassword, unverified, `nobody-${stamp}@example.com`]) {
      verifications.mockClear();
      const outcome = await signInWithPassword({ email, password: "the-right-one-not", redirectTo: "/home", clientIp: `198.51.100.${ip++}` });
      expect(outcome, email).toMatchObject({ refused: true, status: 400 });
      expect(verified(), email).toHaveLength(1);
      expect(verified()[0], email).toMatch(SCRYPT_PARAMS);
    }
    // The right password of an unverified account still opens nothing.
    const refused = await signInWithPassword({ email: unverified, password: "the-right-one", redirectTo: "/home", clientIp: "198.51.100.99" });
    expect(refused).toMatchObject({ refused: true, status: 400 });
  });
});
