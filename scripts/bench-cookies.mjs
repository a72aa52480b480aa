// Shared by the benchmark sections: the cookies a visitor or member holds after some form posts.
import fs from "node:fs";
import path from "node:path";

/**
 * The code in the newest e-mail to `to` in the server's dev mailbox (benchmark servers have
 * no SMTP): how a benchmark member confirms the address a sign-up was made with.
 */
export function codeInMailbox(dataDir, to) {
  const dir = path.join(dataDir, "mailbox");
  for (const name of fs.readdirSync(dir).sort().reverse()) {
    const message = JSON.parse(fs.readFileSync(path.join(dir, name), "utf8"));
    const code = message.to === to ? /sign-in page:\s*([A-Z0-9]{6})/.exec(message.text)?.[1] : undefined;
    if (code) return code;
  }
  throw new Error(`no sign-in code for ${to} in ${dir}`);
}

/**
 * Cookies a browser would hold after the given form posts (each must answer 303). A body may
 * be a function, called when its turn comes (for a code that only exists after the post before).
 */
export async function cookiesAfter(base, posts) {
  const jar = new Map();
  for (const [pathname, body] of posts) {
    const response = await fetch(`${base}${pathname}`, {
      method: "POST",
      body: typeof body === "function" ? body() : body,
      redirect: "manual",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
      },
    });
    if (response.status !== 303) throw new Error(`POST ${pathname}: ${response.status}`);
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

/**
 * The cookies a browser holds after opening `pathname` once with `cookie`: what it sets is
 * kept, what it clears (Max-Age=0) is dropped. A benchmark repeats a page as a browser would,
 * with the countdown's deadline it was given and without the toast it has already shown.
 */
export async function cookiesAfterVisit(base, pathname, cookie) {
  const jar = new Map(
    cookie
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
  );
  const response = await fetch(`${base}${pathname}`, { headers: { Cookie: cookie }, redirect: "manual" });
  await response.arrayBuffer();
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const at = pair.indexOf("=");
    const value = pair.slice(at + 1);
    if (/;\s*Max-Age=0/i.test(line) || value === "") jar.delete(pair.slice(0, at));
    else jar.set(pair.slice(0, at), value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}
