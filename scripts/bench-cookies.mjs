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
