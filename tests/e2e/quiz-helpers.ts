/**
 * Taking a quiz quickly in an end-to-end test: each step's form is posted through the page's
 * own request context (so the answers land in the browser's cookies, as when clicking), and
 * the result page is opened in the browser. The funnels' own specs click through every step;
 * tests that need a finished quiz use this.
 */
import { expect, type Page } from "@playwright/test";
import { readEmbeddedDataset } from "../../app/content/embedded-dataset.server";
import { findStep, nextTarget, type Answers } from "../../app/funnels/engine";
import { resolveFunnel } from "../../app/content/funnel-resolve";
import type { Funnel } from "../../app/content-model/funnel";

let funnels: Map<string, Funnel> | undefined;

function funnelAt(route: string): Funnel {
  if (!funnels) {
    const dataset = readEmbeddedDataset();
    const shared = new Map<string, unknown>(dataset.filter((d) => d._type === "question").map((d) => [d._id, d]));
    funnels = new Map();
    for (const doc of dataset.filter((d) => d._type === "funnel")) {
      const result = resolveFunnel(doc, shared);
      if (result.ok) funnels.set(result.funnel.route, result.funnel);
    }
  }
  const funnel = funnels.get(route);
  if (!funnel) throw new Error(`no funnel at ${route}`);
  return funnel;
}

/**
 * Answers every question of the funnel at `route` (the given answers, else each question's first
 * option) and opens its result page, or the step `openStep` when given (e.g. the e-mail step
 * before the result, which the walk otherwise passes by). Returns the answers given.
 */
export async function takeQuiz(
  page: Page,
  baseURL: string,
  route: string,
  wanted: Record<string, string | string[]>,
  { openStep }: { openStep?: string } = {},
): Promise<Answers> {
  const funnel = funnelAt(route);
  const answers: Record<string, string | string[]> = {};
  let step = funnel.steps[0];
  for (let guard = 0; guard < 50; guard++) {
    const path = `${funnel.route}/${step.id}`;
    if (step.type === "result" || step.id === openStep) {
      await page.goto(path);
      return answers;
    }
    if (step.type === "intro" || step.type === "question") {
      const form = new URLSearchParams();
      if (step.type === "question") {
        for (const question of step.questions) {
          const value = wanted[question.field] ?? (question.select === "one" ? question.options[0].value : [question.options[0].value]);
          answers[question.field] = value;
          for (const v of Array.isArray(value) ? value : [value]) form.append(question.field, v);
        }
        form.append("intent", "continue");
      }
      // Sent as the page's own form would be: same origin.
      const response = await page.request.post(`${baseURL}${path}`, {
        data: form.toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(baseURL).origin },
        maxRedirects: 0,
      });
      expect(response.status(), `${path}: ${await response.text()}`).toBe(303);
    }
    const target = nextTarget(step.next, answers);
    if ("href" in target) throw new Error(`${route} leaves for ${target.href} before a result`);
    step = findStep(funnel, target.step)!;
  }
  throw new Error(`${route}: no result within 50 steps`);
}
