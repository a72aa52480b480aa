/**
 * Password sign-in must not tell an attacker whether an address has an account (or a
 * password): every attempt does the same scrypt work. Measured as medians over a few runs;
 * the difference it guards against is tenfold (one scrypt, ~50 ms, versus none, ~1 ms).
 */
import { describe, expect, it } from "vitest";
import { signInWithPassword } from "~/auth/login.server";
import { hashPassword } from "~/auth/crypto.server";
import { db } from "~/utils/db.server";

async function median(run: () => Promise<unknown>, times = 5): Promise<number> {
  const durations: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    durations.push(performance.now() - started);
  }
  return durations.sort((a, b) => a - b)[Math.floor(times / 2)];
}

describe("password sign-in timing", () => {
  it("takes as long for an unknown address, or an account without a password, as for a wrong password", async () => {
    const stamp = Date.now();
    const withPassword = `timed-pw-${stamp}@example.com`;
    const withoutPassword = `timed-nopw-${stamp}@example.com`;
    await db.user.create({ data: { email: withPassword, passwordHash: await hashPassword("the-right-one"), emailVerifiedAt: new Date() } as never });
    await db.user.create({ data: { email: withoutPassword, emailVerifiedAt: new Date() } as never });
    let ip = 0;
    const attempt = (email: string) => () => signInWithPassword({ email, password: "a-wrong-guess", redirectTo: "/home", clientIp: `198.51.100.${ip++ % 250}` });

    const wrongPassword = await median(attempt(withPassword));
    const noPassword = await median(attempt(withoutPassword));
    const unknown = await median(attempt(`nobody-${stamp}@example.com`));
    expect(noPassword).toBeGreaterThan(wrongPassword * 0.5);
    expect(unknown).toBeGreaterThan(wrongPassword * 0.5);
  });
});
