// Shared by the benchmark sections: the cookies a visitor or member holds after some form posts.

/** Cookies a browser would hold after the given form posts (each must answer 303). */
export async function cookiesAfter(base, posts) {
  const jar = new Map();
  for (const [pathname, body] of posts) {
    const response = await fetch(`${base}${pathname}`, {
      method: "POST",
      body,
      redirect: "manual",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
      },
    });
    if (response.status !== 303)
      throw new Error(`POST ${pathname}: ${response.status}`);
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}
