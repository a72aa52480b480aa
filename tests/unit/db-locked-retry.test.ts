/**
 * Workers sharing one SQLite file take turns at its write lock. A transaction that waited past
 * the driver's own wait is run again (againWhenLocked), never answered as an error; any other
 * error goes through at once.
 */
import { describe, expect, it } from "vitest";
import { againWhenLocked } from "~/utils/db.server";

/** What Prisma's SQLite adapter throws when another process held the lock too long. */
const locked = () =>
  Object.assign(new Error("database is locked"), { code: "P2010", meta: { driverAdapterError: { cause: { originalCode: "SQLITE_BUSY" } } } });

describe("a transaction while another process holds SQLite's write lock", () => {
  it("is run again until it gets the lock, and its result is the answer", async () => {
    let tries = 0;
    const result = await againWhenLocked(async () => {
      tries++;
      if (tries < 3) throw locked();
      return "stored";
    });
    expect(result).toBe("stored");
    expect(tries).toBe(3);
  });

  it("lets any other error through at once", async () => {
    let tries = 0;
    const failure = await againWhenLocked(async () => {
      tries++;
      throw Object.assign(new Error("unique"), { code: "P2002" });
    }).catch((error: Error) => error);
    expect(failure.message).toBe("unique");
    expect(tries).toBe(1);
  });
});
