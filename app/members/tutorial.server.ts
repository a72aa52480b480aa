/**
 * The tutorial pages, /path1 onwards, and /completion (signed in, else /email-instructions):
 * the tutorial of the plan the member follows (the default plan's for a member without one).
 * The routes read the request (who is signed in, the path, the cookies); these take the values.
 */
import type { SessionUser } from "~/auth/users.server";
import { getSiteSettings, getTutorialSettings, getTutorialStep } from "~/content/content.server";
import { copyrightYear } from "~/utils/copyright-year.server";
import { stepsDoneOn } from "./completions.server";
import { tutorialPicks, videoView } from "./personalise";
import { memberPlan } from "./plans.server";
import { memberToday } from "./time-zone.server";

/** The step number in /path1 ... /path6, or null for anything else. */
export function tutorialStepNumber(pathname: string): number | null {
  const match = /^\/path([1-9])\/?$/.exec(pathname);
  return match ? Number(match[1]) : null;
}

/** The footer's links: the site settings' links that have a page (one without is not shown). */
async function footerOf(settings: { footer: { tagline: string; copyright: string } }) {
  const site = await getSiteSettings();
  return {
    ...settings.footer,
    // The content writes "{year}": the same year as every other footer.
    copyright: settings.footer.copyright.replaceAll("{year}", String(copyrightYear())),
    brandName: site.brandName,
    supportEmail: site.supportEmail,
    links: site.footerLinks.flatMap((link) => (link.href ? [{ label: link.label, href: link.href }] : [])),
  };
}

/** One tutorial page; null when the path is no step of the member's plan (the route answers 404). */
export async function tutorialStepView(input: { user: SessionUser; pathname: string; cookieHeader: string | null }) {
  const { user } = input;
  const number = tutorialStepNumber(input.pathname);
  const [{ plan, personal }, settings] = await Promise.all([memberPlan(user, input.cookieHeader), getTutorialSettings()]);
  const id = number && plan ? plan.tutorial[number - 1] : undefined;
  const step = id ? await getTutorialStep(id) : null;
  if (!number || !plan || !step) return null;
  const total = plan.tutorial.length;
  return {
    planName: plan.name,
    step: {
      number,
      title: step.title,
      image: step.image,
      video: videoView(step.video),
      explanation: step.explanation,
      keyMessage: step.keyMessage,
      tips: step.tips,
      recommendedHeading: step.recommendedHeading,
      recommended: tutorialPicks(step.recommended, personal?.productPicks ?? null),
      avoid: step.avoid,
      next: { label: step.nextLabel, href: number < total ? `/path${number + 1}` : "/completion" },
    },
    total,
    percent: Math.round((number / total) * 100),
    previousHref: number > 1 ? `/path${number - 1}` : null,
    footer: await footerOf(settings),
  };
}

/**
 * /completion: the end of the tutorial. It says today's steps are done only when they are;
 * otherwise how many are, and the way to the routine.
 */
export async function completionView(input: { user: SessionUser; cookieHeader: string | null }) {
  const { user } = input;
  const [member, settings, { today }] = await Promise.all([memberPlan(user, input.cookieHeader), getTutorialSettings(), memberToday(user, input.cookieHeader)]);
  const plan = member.plan;
  const done = plan && member.owned ? (await stepsDoneOn(user.id, plan._id, today)).length : 0;
  const count = plan?.stepCount ?? 0;
  const { completion } = settings;
  const allDone = count > 0 && done >= count;
  return {
    title: completion.title,
    message: completion.message.replaceAll("{plan}", plan?.name ?? ""),
    badge: (allDone ? completion.badge : completion.pendingBadge).replaceAll("{count}", String(count)).replaceAll("{done}", String(done)),
    allDone,
    button: allDone ? completion.button : { label: completion.pendingButton, href: plan && member.owned ? `/plan/${plan._id}` : (member.offerPath ?? "/home") },
    trustLine: completion.trustLine,
    footer: await footerOf(settings),
  };
}

export type TutorialFooterData = Awaited<ReturnType<typeof completionView>>["footer"];
