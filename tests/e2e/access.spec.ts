/**
 * The authorization matrix: every route of the app, visited as an anonymous
 * visitor, a member and an admin, with the page or redirect each must get.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { signedInMember } from "./members-helpers";

type Role = "anonymous" | "user" | "admin";
/** A status = that page itself (200, or the 4xx page for missing input); a path = a redirect there. */
type Outcome = number | string;
type Row = { paths: string[]; expect: Record<Role, Outcome> };

const open: Record<Role, Outcome> = { anonymous: 200, user: 200, admin: 200 };
const signedIn = (signedOut: string): Record<Role, Outcome> => ({ anonymous: signedOut, user: 200, admin: 200 });

const MATRIX: Row[] = [
  { paths: ["/", "/app"], expect: open },
  { paths: ["/quiz", "/quiz/1", "/makeup", "/cakey-makeup", "/crease-crisis"], expect: open },
  { paths: ["/subscribe", "/subscribe-otp", "/sales", "/cakey-otp"], expect: open },
  // Open to all, but without ?session_id there is nothing to verify: the page says so (400).
  { paths: ["/payment-success"], expect: { anonymous: 400, user: 400, admin: 400 } },
  { paths: ["/email-instructions", "/home"], expect: open },
  { paths: ["/privacy-policy", "/terms-of-service", "/partnerships"], expect: open },
  { paths: ["/app-prototype", "/app-quiz", "/app-goal", "/app-crease"], expect: open },
  // Insights are made from the prototype quiz's answers: with none yet, the quiz comes first.
  { paths: ["/app-insights"], expect: { anonymous: "/app-quiz", user: "/app-quiz", admin: "/app-quiz" } },
  // Signing in or registering again makes no sense once signed in.
  { paths: ["/login", "/registration"], expect: { anonymous: 200, user: "/home", admin: "/home" } },
  { paths: ["/path1", "/path2", "/path3", "/path4", "/path5", "/path6", "/completion"], expect: signedIn("/email-instructions") },
  { paths: ["/profile"], expect: signedIn("/login") },
  // The player is for plans the member owns (these members own none): anyone else gets its offer page.
  { paths: ["/plan/clear-healthy-skin"], expect: { anonymous: "/login", user: "/subscribe", admin: "/subscribe" } },
  { paths: ["/plan/crease-free"], expect: { anonymous: "/login", user: "/sales", admin: "/sales" } },
  { paths: ["/admin", "/admin/experiments"], expect: { anonymous: "/login", user: "/home", admin: 200 } },
  // Without an OAuth round trip the callback fails safely back to /login.
  { paths: ["/auth/callback"], expect: { anonymous: "/login", user: "/login", admin: "/login" } },
  { paths: ["/no-such-page"], expect: { anonymous: 404, user: 404, admin: 404 } },
  // The guard answers before the plan lookup: signed-out visitors learn nothing about plan ids.
  { paths: ["/plan/no-such-plan"], expect: { anonymous: "/login", user: 404, admin: 404 } },
];

async function visit(request: APIRequestContext, path: string): Promise<{ status: number; location: string | null }> {
  const response = await request.get(path, { maxRedirects: 0 });
  const location = response.headers().location ?? null;
  return { status: response.status(), location: location ? new URL(location, "http://x").pathname : null };
}

for (const role of ["anonymous", "user", "admin"] as const) {
  test(`route table as ${role}`, async ({ context, baseURL }) => {
    if (role !== "anonymous") await signedInMember(context, baseURL!, { role });
    const seen: string[] = [];
    const wrong: string[] = [];
    for (const row of MATRIX) {
      for (const path of row.paths) {
        const expected = row.expect[role];
        const { status, location } = await visit(context.request, path);
        const got = status >= 300 && status < 400 ? (location ?? "?") : status;
        seen.push(`${path} → ${got}`);
        if (got !== expected) wrong.push(`${path}: expected ${expected}, got ${got}`);
      }
    }
    expect(wrong, seen.join("\n")).toEqual([]);
  });
}
