/**
 * Redirect targets that try to leave our origin, shared by the unit test of safeRedirect()
 * and the end-to-end walk of every redirecting route. Each is something a browser (WHATWG URL
 * parsing: "\" is "/", tabs and newlines are dropped, dot segments collapse) could take to
 * another site, or a scheme that runs code.
 */
export const REDIRECT_ATTACKS: readonly string[] = [
  "//evil.example/x",
  "/\\evil.example/x",
  "\\\\evil.example/x",
  "/.//evil.example/x",
  "/./\\evil.example/x",
  "/..//evil.example/x",
  "/x/../..//evil.example/x",
  "/%2F%2Fevil.example/x",
  "%2F%2Fevil.example/x",
  "/%2e/%2Fevil.example/x",
  "/%5C%5Cevil.example/x",
  "%252F%252Fevil.example/x",
  "https:evil.example",
  "https://evil.example/",
  "HTTPS://evil.example/",
  "/\t/evil.example/x",
  "/\n/evil.example/x",
  "/\r\n/evil.example/x",
  "\t//evil.example/x",
  " //evil.example/x",
  "javascript:alert(1)",
  "java\tscript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "http:/\\/evil.example",
];
