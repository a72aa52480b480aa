import { describe, expect, it } from "vitest";
import { hashPassword, normalizeCode, randomCode, verifyPassword } from "~/auth/crypto.server";
import { displayName, initials } from "~/auth/display";
import { safeRedirect } from "~/auth/redirect";

describe("after sign-in, only same-origin paths are followed", () => {
  it.each(["/home", "/plan/abc?step=2", "/quiz/3#top", "/path1"])("keeps %s", (to) => {
    expect(safeRedirect(to)).toBe(to);
  });

  it.each([
    "https://evil.example/home",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "%2F%2Fevil.example",
    "/%2F%2Fevil.example",
    "%252F%252Fevil.example",
    "/%5Cevil.example",
    "/\t/evil.example",
    "javascript:alert(1)",
    "home",
    "",
    "/%E0%A4%A",
  ])("ignores %j", (to) => {
    expect(safeRedirect(to)).toBe("/home");
  });

  it("ignores anything that is not a string", () => {
    expect(safeRedirect(undefined)).toBe("/home");
    expect(safeRedirect(["/admin"])).toBe("/home");
    expect(safeRedirect(null, "/login")).toBe("/login");
  });
});

describe("display name and initials", () => {
  it("uses the part of the e-mail before the @", () => {
    expect(displayName("jane.doe@example.com")).toBe("jane.doe");
    expect(initials("jane.doe@example.com")).toBe("JA");
    expect(initials("x@example.com")).toBe("X");
    expect(initials(null)).toBe("U");
    expect(initials("")).toBe("U");
  });
});

describe("secrets", () => {
  it("hashes passwords with scrypt and checks them", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterY", hash)).toBe(false);
    expect(await verifyPassword("x", "not-a-hash")).toBe(false);
  });

  it("makes readable 6-character codes and forgives spacing and case", () => {
    for (let i = 0; i < 50; i++) expect(randomCode()).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
    expect(normalizeCode(" ab3-k9x ")).toBe("AB3K9X");
  });
});
