/**
 * Password sign-in must not tell an attacker whether an address has an account (or a
 * password) by how long it takes: every attempt does the same scrypt work. Checked by what
 * runs, not by a stopwatch (the machine's load would make a timed test flaky): each attempt
 * verifies the password exactly once, against a hash made with the same scrypt parameters.
 */
import { afterEach, describe, expect, it, vi } from "vitest";

const verified = vi.hoisted(() => [] as string[]);
vi.mock("~/auth/crypto.server", async (importOriginal) => {
  const actual = await importOriginal<typeof import("~/auth/crypto.server")>();
  return {
    ...actual,
    verifyPassword: async (password: string, stored: string) => {
      verified.push(stored);
      return actual.verifyPassword(password, stored);
    },
  };
});

const { signInWithPassword } = await import("~/auth/login.server");
const { hashPassword } = await import("~/auth/crypto.server");
const { db } = await import("~/utils/db.server");

const SCRYPT_PARAMS = /^scrypt\$16384\$8\$1\$/;

describe("password sign-in timing", () => {
  afterEach(() => {
    verified.length = 0;
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
      verified.length = 0;
      const outcome = await signInWithPassword({ email, password: "the-right-one-not", redirectTo: "/home", clientIp: `198.51.100.${ip++}` });
      expect(outcome, email).toMatchObject({ refused: true, status: 400 });
      expect(verified, email).toHaveLength(1);
      expect(verified[0], email).toMatch(SCRYPT_PARAMS);
    }
    // The right password of an unverified account still opens nothing.
    const refused = await signInWithPassword({ email: unverified, password: "the-right-one", redirectTo: "/home", clientIp: "198.51.100.99" });
    expect(refused).toMatchObject({ refused: true, status: 400 });
  });
});
