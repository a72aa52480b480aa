/** The tutorial pages, /path1 to /path6 and /completion (signed in, else /email-instructions). */
import { requireUser } from "~/auth/guards.server";
import { getSiteSettings, getTutorialSettings, getTutorialStep } from "~/content/content.server";
import { notFound } from "~/utils/http.server";

/** The step number in /path1 ... /path6, or null for anything else. */
export function tutorialStepNumber(pathname: string): number | null {
  const match = /^\/path([1-9])\/?$/.exec(pathname);
  return match ? Number(match[1]) : null;
}

export async function tutorialStepView(request: Request) {
  await requireUser(request, "/email-instructions");
  const number = tutorialStepNumber(new URL(request.url).pathname);
  const [step, settings, site] = await Promise.all([number ? getTutorialStep(number) : null, getTutorialSettings(), getSiteSettings()]);
  if (!number || !step) throw notFound(request);
  return {
    step,
    total: settings.totalSteps,
    percent: Math.round((number / settings.totalSteps) * 100),
    previousHref: number > 1 ? `/path${number - 1}` : null,
    footer: { ...settings.footer, brandName: site.brandName, supportEmail: site.supportEmail },
  };
}

export async function completionView(request: Request) {
  await requireUser(request, "/email-instructions");
  const [settings, site] = await Promise.all([getTutorialSettings(), getSiteSettings()]);
  return { completion: settings.completion, footer: { ...settings.footer, brandName: site.brandName, supportEmail: site.supportEmail } };
}

export type TutorialFooterData = Awaited<ReturnType<typeof completionView>>["footer"];
