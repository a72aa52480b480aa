/** Waits until the app at `base` answers its home page (every 250 ms, 100 s at most). */
export async function serverReady(base, name = "the server") {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/`)).ok) return;
    } catch {
      // Not listening yet: try again.
    }
    if (i > 400) throw new Error(`${name} did not start`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
