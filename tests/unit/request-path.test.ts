import { describe, expect, it } from "vitest";
import { judgeRequestPath } from "~/security/request-path";

/** The endpoint each target is counted and judged as (what the router matches, case and trailing slashes aside). */
const ENDPOINTS: [string, string][] = [
  ["/quiz/1", "/quiz/1"],
  // Dot segments, also %-encoded: resolved as the WHATWG URL parser in Remix's adapter does.
  ["/webhooks/../quiz/1", "/quiz/1"],
  ["/webhooks/%2e%2e/quiz/1", "/quiz/1"],
  ["/webhooks/%2E%2E/quiz/1", "/quiz/1"],
  ["/webhooks/.%2e/quiz/1", "/quiz/1"],
  ["/webhooks/%2e./quiz/1", "/quiz/1"],
  ["/quiz/./1", "/quiz/1"],
  ["/quiz/%2e/1", "/quiz/1"],
  ["/../../quiz/1", "/quiz/1"],
  ["/webhooks/stripe/../../login", "/login"],
  // A backslash is a slash in an http: URL.
  ["/webhooks\\..\\quiz/1", "/quiz/1"],
  // %-escapes decoded per segment, as the router does; an escaped slash stays escaped.
  ["/%71uiz/1", "/quiz/1"],
  ["/quiz/%31", "/quiz/1"],
  ["/%6Cogin", "/login"],
  ["/%6cogin", "/login"],
  ["/quiz%2f1", "/quiz%2f1"],
  ["/webhooks%2f..%2fquiz/1", "/webhooks%2f..%2fquiz/1"],
  // A broken escape anywhere: the router matches the whole path as sent.
  ["/%6Cogin/%", "/%6cogin/%"],
  ["/quiz/%E0%A4%A", "/quiz/%e0%a4%a"],
  // Case and trailing slashes: route paths match regardless.
  ["/LOGIN", "/login"],
  ["/Login", "/login"],
  ["/login/", "/login"],
  ["/login//", "/login"],
  ["/", "/"],
  ["//", "/"],
  // Single fetch: `<path>.data` is `<path>`'s route, `/_root.data` the root's.
  ["/login.data", "/login"],
  ["/LOGIN.data", "/login"],
  ["/login/.data", "/login"],
  ["/_root.data", "/"],
  ["/_ROOT.data", "/_root"],
  ["/login.DATA", "/login.data"],
  ["/webhooks/stripe/../../quiz/1.data", "/quiz/1"],
  // Taking `.data` off resolves dot segments again (Remix uses the URL's pathname setter).
  ["/webhooks/%2e%2e.data", "/"],
  ["/webhooks/stripe/..data", "/webhooks/stripe"],
  // The query never changes the endpoint (`?index` picks a layout's index route: one count).
  ["/login?index", "/login"],
  ["/quiz/1?x=/../../webhooks/stripe", "/quiz/1"],
  ["/quiz/1#/../webhooks/stripe", "/quiz/1"],
  // Empty segments are kept: `//quiz/1` is no funnel step (the not-found route answers it).
  ["//quiz/1", "//quiz/1"],
  ["/quiz//1", "/quiz//1"],
];

describe("a request's path, judged the way the router will match it", () => {
  it.each(ENDPOINTS)("%s → %s", (target, endpoint) => {
    expect(judgeRequestPath(target)?.endpoint).toBe(endpoint);
  });

  it("keeps the routed path's case and trailing slash, and says which were data requests", () => {
    expect(judgeRequestPath("/Plan/ABC/")).toEqual({ routed: "/Plan/ABC/", endpoint: "/plan/abc", dataRequest: false, asSent: true });
    expect(judgeRequestPath("/home.data?_routes=root")).toEqual({ routed: "/home", endpoint: "/home", dataRequest: true, asSent: false });
    expect(judgeRequestPath("/h%6Fme")).toMatchObject({ routed: "/home", asSent: false });
    expect(judgeRequestPath("/home/./")).toMatchObject({ routed: "/home/", asSent: false });
    expect(judgeRequestPath("/plan/clear-healthy-skin?step=2")).toMatchObject({ routed: "/plan/clear-healthy-skin", asSent: true });
  });

  it("a request target that is no path (absolute-form, *, empty) is no route at all", () => {
    for (const target of ["http://evil.example/quiz/1", "https://127.0.0.1/login", "*", "", "quiz/1"]) expect(judgeRequestPath(target), target).toBeNull();
  });
});
