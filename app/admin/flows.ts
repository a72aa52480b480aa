/**
 * The funnels as the admin reports them: a quiz is one funnel; the prototype app is one flow
 * of several funnel files (welcome, quiz, insights, goal, crease plan), each a page of it.
 * Pure: worked out from the funnels' own links, so a new page of a flow needs no code.
 */
import type { Funnel } from "~/content-model/funnel";
import type { FunnelInfo } from "./metrics";

/** The app paths a funnel links to (its steps' hrefs). */
function linksOf(funnel: Funnel): string[] {
  return [...JSON.stringify(funnel.steps).matchAll(/"href":"(\/[^"?#]*)/g)].map((m) => m[1]);
}

/**
 * A funnel is a page of another's flow when it has no result of its own (it is not a quiz
 * someone finishes) and exactly one funnel links to it; the flow is named by its first
 * page, and its pages follow the links in order. Every other funnel is a flow of one.
 */
export function funnelFlows(funnels: readonly Funnel[]): FunnelInfo[] {
  const byRoute = new Map(funnels.map((f) => [f.route, f]));
  const linkedFrom = new Map<string, Set<string>>();
  for (const funnel of funnels) {
    for (const path of linksOf(funnel)) {
      const target = byRoute.get(path);
      if (target && target.id !== funnel.id) linkedFrom.set(target.id, (linkedFrom.get(target.id) ?? new Set()).add(funnel.id));
    }
  }
  const isPage = (f: Funnel) => !f.steps.some((s) => s.type === "result") && linkedFrom.get(f.id)?.size === 1;

  return funnels
    .filter((f) => !isPage(f))
    .map((head) => {
      const parts: Funnel[] = [head];
      for (let i = 0; i < parts.length; i++) {
        for (const path of linksOf(parts[i])) {
          const next = byRoute.get(path);
          if (next && isPage(next) && !parts.includes(next)) parts.push(next);
        }
      }
      const steps = parts.flatMap((part) => part.steps.flatMap((s) => (s.type === "question" ? [{ id: s.id, label: s.title, funnel: part.id }] : [])));
      // A flow of several pages is named by its editors' title ("Prototype app: welcome" → "Prototype app"):
      // its first page's visitor-facing title names only that page.
      const title = parts.length > 1 ? head.title.split(":")[0].trim() : head.pageTitle;
      return { id: head.id, title, parts: parts.map((p) => p.id), steps };
    });
}

/** Each funnel id's flow id (a page's flow, or the funnel itself). */
export function flowIdOf(flows: readonly FunnelInfo[]): Map<string, string> {
  return new Map(flows.flatMap((flow) => (flow.parts ?? [flow.id]).map((part) => [part, flow.id] as const)));
}
