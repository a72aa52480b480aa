// The Lighthouse section of `npm run bench` (`npm run bench -- --only=lighthouse`): the
// performance category with Lighthouse's mobile preset and simulated throttling, Debian
// chromium, on the six pages the quality-gates issue names. Each page is measured
// LIGHTHOUSE_RUNS times (default 5) and the median reported, as Lighthouse advises: single
// runs on one machine vary. A benchmark, not a test: it reports, it does not fail.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { codeInMailbox, cookiesAfter } from "./bench-cookies.mjs";

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const TARGET_SCORE = 98;
const TARGET_LCP_MS = 1200;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchLighthouse({ base, dataDir }) {
  // /quiz/3 as a visitor who answered steps 1 and 2; /home as a member who just signed up
  // and confirmed the address with the e-mail's code.
  const quizVisitor = await cookiesAfter(base, [
    ["/quiz", ""],
    ["/quiz/1", "skinType=dry"],
    ["/quiz/2", "mainConcern=acne&mainConcern=redness"],
  ]);
  const password = "lighthouse-bench-1";
  const email = `lighthouse-${Date.now()}@glowcoach.test`;
  const member = await cookiesAfter(base, [
    [
      "/registration",
      new URLSearchParams({
        name: "Bench Member",
        email,
        password,
        confirmPassword: password,
      }).toString(),
    ],
    ["/login/check-email", () => new URLSearchParams({ code: codeInMailbox(dataDir, email) }).toString()],
  ]);
  const pages = [
    ["/", ""],
    ["/quiz", ""],
    ["/quiz/3", quizVisitor],
    ["/subscribe", ""],
    ["/sales", ""],
    ["/home", member],
  ];

  const rows = [];
  let version = "";
  // LIGHTHOUSE_PAGES=/quiz,/home measures only those pages (exact paths).
  const only = process.env.LIGHTHOUSE_PAGES?.split(",");
  for (const [pathname, cookie] of pages.filter(([pathname]) => !only || only.includes(pathname))) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      // A fresh browser per run: cookies a page sets must not reach the next run next to the given ones.
      const chrome = await chromeLauncher.launch({
        chromePath: CHROME,
        chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
      });
      try {
        const { lhr } = await lighthouse(
          `${base}${pathname}`,
          {
            port: chrome.port,
            onlyCategories: ["performance"],
            logLevel: "error",
            extraHeaders: cookie ? { Cookie: cookie } : undefined,
          },
          // Mobile preset, simulated throttling: Lighthouse's defaults, stated so a change of defaults shows here.
          {
            extends: "lighthouse:default",
            settings: { formFactor: "mobile", throttlingMethod: "simulate" },
          },
        );
        if (lhr.finalDisplayedUrl !== `${base}${pathname}`) throw new Error(`${pathname} ended at ${lhr.finalDisplayedUrl}`);
        version = lhr.lighthouseVersion;
        const metric = (id) => lhr.audits[id].numericValue;
        runs.push({
          score: Math.round(lhr.categories.performance.score * 100),
          lcp: metric("largest-contentful-paint"),
          fcp: metric("first-contentful-paint"),
          tbt: metric("total-blocking-time"),
          cls: metric("cumulative-layout-shift"),
          si: metric("speed-index"),
        });
      } finally {
        await chrome.kill();
      }
    }
    const of = (key) => runs.map((run) => run[key]);
    rows.push({
      pathname,
      signedIn: pathname === "/home",
      runs,
      score: median(of("score")),
      lcp: median(of("lcp")),
      fcp: median(of("fcp")),
      tbt: median(of("tbt")),
      cls: median(of("cls")),
      si: median(of("si")),
    });
  }

  console.log(`\n## Lighthouse ${version} performance, mobile preset, simulated throttling (median of ${RUNS} runs per page)\n`);
  console.log("| page | score | LCP s | FCP s | TBT ms | CLS | Speed Index s | scores of the runs | LCP of the runs (s) |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---|---|");
  const s = (ms) => (ms / 1000).toFixed(2);
  for (const row of rows) {
    const name = row.signedIn ? `${row.pathname} (signed in)` : row.pathname;
    console.log(
      `| ${name} | ${row.score} | ${s(row.lcp)} | ${s(row.fcp)} | ${row.tbt.toFixed(0)} | ${row.cls.toFixed(3)} | ${s(
        row.si,
      )} | ${row.runs.map((r) => r.score).join(", ")} | ${row.runs.map((r) => s(r.lcp)).join(", ")} |`,
    );
  }
  const met = rows.filter((row) => row.score >= TARGET_SCORE && row.lcp <= TARGET_LCP_MS).length;
  console.log(`\nPages meeting score ≥ ${TARGET_SCORE} and LCP ≤ ${s(TARGET_LCP_MS)} s (medians): ${met} of ${rows.length}`);
}
