// The quiz section of `npm run bench` (`npm run bench -- --only=quiz`): the skin quiz answered
// in a desktop Chromium with JavaScript on, twice: over loopback, and with the browser's network
// emulated at a mobile profile (150 ms round trip, 1.6 Mbps down, 750 kbps up: Lighthouse's
// mobile preset, through the DevTools protocol). For each step, the time from the tap that moves
// on (the option button of a step that advances by itself, else Continue) to the next step's
// heading on screen, and the requests that tap caused; and the whole quiz, from question 1 on
// screen to the analysing step on screen (the drivers' clicks included, as a visitor's taps would
// be). A step that advances by itself waits its `autoAdvanceMs` on purpose (the choice is shown
// first): reported apart. A benchmark, not a test: it reports, it does not fail.
import { chromium } from "@playwright/test";
import { chromiumPath } from "./e2e-browser.mjs";

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

const NETWORKS = [
  { name: "loopback" },
  { name: "mobile (150 ms RTT, 1.6 Mbps)", conditions: { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 } },
];

/**
 * The floor: the same twelve questions as one static page whose script swaps each step in at
 * the tap (no framework, no server, no storage), measured by the same walk and the same clicks.
 * What this machine and browser cannot beat: two animation frames, and the driver's own clicks.
 */
const FLOOR_PAGE = `<!doctype html><html data-hydrated><head><meta charset="utf-8"><title>floor</title></head><body><main id="step"></main><script>
const step = document.getElementById("step");
function show(n) {
  if (n === 0) step.innerHTML = '<h1>Welcome</h1><form><button type="submit">Start</button></form>';
  else if (n <= 12) step.innerHTML = '<div role="progressbar" aria-valuenow="' + n + '"></div><h1>Question ' + n + '</h1><form><fieldset>' +
    ['a', 'b', 'c'].map((v) => '<label><input type="radio" name="q" value="' + v + '"> ' + v + '</label>').join('') +
    '</fieldset><button type="submit" class="continue-button">Continue</button></form>';
  else step.innerHTML = '<h1>Analysing your answers</h1>';
  history.replaceState(null, "", n > 12 ? "/floor/analysing" : "/floor/" + n);
  step.querySelector("form")?.addEventListener("submit", (event) => { event.preventDefault(); show(n + 1); });
}
show(0);
</script></body></html>`;

/** One visitor through the skin quiz (or the floor page), from its first step to the analysing step. */
async function walkQuiz(browser, base, network, { floor = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  if (floor) await page.route(`${base}/floor`, (route) => route.fulfill({ contentType: "text/html", body: FLOOR_PAGE }));
  if (network.conditions) {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", network.conditions);
  }
  let requests = 0;
  page.on("request", (request) => {
    if (!/\/assets\/|\/favicon\./.test(request.url())) {
      requests++;
      if (process.env.BENCH_QUIZ_LOG) console.log(request.method(), request.url());
    }
  });
  await page.goto(`${base}${floor ? "/floor" : "/quiz"}`);
  await page.waitForSelector("html[data-hydrated]");
  const rows = [];
  for (let step = 0; step < 40; step++) {
    const heading = await page.locator("h1").first().textContent();
    const advance = page.locator("form button[type=submit][name][value]");
    const choice = page.locator("form input[type=radio], form input[type=checkbox]");
    let kind;
    let tap;
    if ((await advance.count()) > 0) {
      kind = "advances by itself";
      tap = () => advance.first().click();
    } else if ((await choice.count()) > 0) {
      kind = "Continue";
      await page.locator("form label:has(input[type=radio]), form label:has(input[type=checkbox])").first().click();
      tap = () => page.locator("button.continue-button").click();
    } else if ((await page.locator("form button[type=submit]").count()) > 0 && step === 0) {
      kind = "intro";
      tap = () => page.locator("form button[type=submit]").first().click();
    } else break;
    requests = 0;
    // In the page: from the tap's click event to the first frame painted with the next heading
    // (a frame after the one that shows it), without the test driver's own round trips.
    await page.evaluate((previous) => {
      window.__quizTap = { tappedAt: null, insertedAt: null, shownAt: null };
      document.addEventListener("click", (event) => (window.__quizTap.tappedAt ??= event.timeStamp), { capture: true, once: true });
      const observer = new MutationObserver(() => {
        if (document.querySelector("h1")?.textContent === previous) return;
        observer.disconnect();
        window.__quizTap.insertedAt = performance.now();
        requestAnimationFrame(() => requestAnimationFrame((time) => (window.__quizTap.shownAt = time)));
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    }, heading);
    const t0 = Date.now();
    await tap();
    try {
      await page.waitForFunction((previous) => document.querySelector("h1")?.textContent !== previous, heading, { polling: "raf", timeout: 10_000 });
    } catch {
      break;
    }
    const driverMs = Date.now() - t0;
    await page.waitForFunction(() => window.__quizTap.shownAt !== null);
    const { tappedAt, insertedAt, shownAt } = await page.evaluate(() => window.__quizTap);
    rows.push({
      kind,
      ms: Math.round(shownAt - tappedAt),
      inDomMs: Math.round(insertedAt - tappedAt),
      driverMs,
      requests,
      shownAt,
      url: new URL(page.url()).pathname,
    });
    if (/\/result|\/analys/.test(page.url()) || (await page.locator("[role=progressbar]").count()) === 0) break;
  }
  await context.close();
  if (process.env.BENCH_QUIZ_LOG) for (const row of rows) console.log(row.kind, row.url, `painted ${row.ms} ms, in the DOM ${row.inDomMs} ms`);
  // Question 1 is on screen when the intro's tap is painted; the analysing step is the last row.
  const first = rows.find((r) => r.kind === "intro");
  const last = rows[rows.length - 1];
  return { rows, wholeMs: first && last ? Math.round(last.shownAt - first.shownAt) : NaN, answers: rows.filter((r) => r.kind !== "intro").length };
}

export async function benchQuiz({ base }) {
  const browser = await chromium.launch({ executablePath: chromiumPath() });
  const runs = [];
  for (const network of NETWORKS) runs.push({ network, ...(await walkQuiz(browser, base, network)) });
  // The floor in the same run and browser (its page comes from the test driver: no network to emulate).
  runs.push({ network: { name: "floor: a static page swapping the step in" }, ...(await walkQuiz(browser, base, NETWORKS[0], { floor: true })) });
  await browser.close();
  console.log(`\nSkin quiz in desktop Chromium, JavaScript on\n`);
  console.log(
    "| network | tap | steps | tap → next question painted, median ms (max) | tap → next question in the DOM, median ms (max) | with the test driver's click, median ms (max) | requests per step (median) |",
  );
  console.log("|---|---|---:|---:|---:|---:|---:|");
  for (const { network, rows } of runs) {
    for (const [name, list] of [
      ["Continue", rows.filter((r) => r.kind === "Continue")],
      ["intro", rows.filter((r) => r.kind === "intro")],
      ["option that advances by itself", rows.filter((r) => r.kind === "advances by itself")],
    ])
      if (list.length)
        console.log(
          `| ${network.name} | ${name} | ${list.length} | ${median(list.map((r) => r.ms))} (${Math.max(...list.map((r) => r.ms))}) | ${median(list.map((r) => r.inDomMs))} (${Math.max(...list.map((r) => r.inDomMs))}) | ${median(list.map((r) => r.driverMs))} (${Math.max(...list.map((r) => r.driverMs))}) | ${median(list.map((r) => r.requests))} |`,
        );
  }
  console.log("\n| network | answers | whole quiz: question 1 painted → analysing step painted |");
  console.log("|---|---:|---:|");
  for (const { network, wholeMs, answers, rows } of runs)
    console.log(`| ${network.name} | ${answers} (ends at ${rows[rows.length - 1]?.url}) | ${wholeMs} ms |`);
  console.log("");
}
