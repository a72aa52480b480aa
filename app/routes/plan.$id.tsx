/**
 * /plan/:id, the daily routine player (signed in, else /login). Plain forms: completing a
 * step and finishing work without JavaScript; ?step=n is the current step.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { requireAccess } from "~/auth/guards.server";
import type { SessionUser } from "~/auth/users.server";
import { ArrowLeftIcon, ArrowRightIcon, CheckIcon, SparkleIcon } from "~/components/ui/icons";
import { FormAlert } from "~/components/ui/form";
import { Progress, TipList, VideoOrPicture } from "~/members/components/member-ui";
import { playerAction, playerView } from "~/members/player.server";
import { purchaseIncludesPlan } from "~/members/routine-access.server";
import { TimeZoneField } from "~/members/time-zone-field";
import { browserTimeZone } from "~/members/time-zone.server";
import { formErrorsOf } from "~/utils/form-errors";
import { parseForm, replyRefused } from "~/utils/form.server";
import { notFound } from "~/utils/http.server";
import { isGo, isRefusal } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { seo } from "~/utils/seo";
import { pageMayBeStored, type PageInput } from "~/utils/page-record.server";

export const meta: MetaFunction<typeof loader> = (args) =>
  seo(args, {
    title: args.data ? `${args.data.step.title} · Step ${args.data.step.number} · Glow Coach` : "Your routine · Glow Coach",
    description: "Today's routine, one guided step at a time.",
    noindex: true,
  });

/** A member, or a browser that paid for this routine (a purchase session); others go to /login. */
async function routineMember(request: Request, planId: string): Promise<SessionUser> {
  const session = await requireAccess(request, "routine", (checkoutSessionId) => purchaseIncludesPlan(checkoutSessionId, planId));
  return session.user;
}

/** What the routine player, root layout included, is rendered from (checked against its render's statements: stored-page-reads.test.ts). */
const PLAYER_READS = [
  "url",
  "cookies",
  "content",
  "clock",
  "member:User",
  "member:Session",
  "member:Entitlement",
  "member:EntitlementState",
  "member:MemberAnswers",
  "member:PlanCompletion",
  "member:PlanStepCompletion",
] as const satisfies readonly PageInput[];

export async function loader({ request, params }: LoaderFunctionArgs) {
  // Kept and answered again from memory to this browser while what it reads stays the same (ADR 26, 40).
  pageMayBeStored(PLAYER_READS);
  const planId = params.id ?? "";
  const user = await routineMember(request, planId);
  const cookieHeader = request.headers.get("Cookie");
  const requestedStep = new URL(request.url).searchParams.get("step");
  const view = await playerView({ user, planId, requestedStep, browserTimeZone: browserTimeZone(cookieHeader), cookieHeader });
  if (!view) throw notFound(request);
  if (isGo(view)) throw redirect(view.go);
  if (isRefusal(view)) throw data(view.message, { status: view.status });
  return view;
}

/** The player's forms: buttons with hidden fields, and the zone the browser is in (filled in by JavaScript). */
const PlayerForm = z.object({
  intent: z.enum(["complete-step", "finish"], { error: "Please use the buttons on the page." }),
  step: z.string({ error: "Please use the buttons on the page." }).optional(),
  timeZone: z.string({ error: "Please use the buttons on the page." }).optional(),
});

export async function action({ request, params, context }: ActionFunctionArgs) {
  const planId = params.id ?? "";
  const user = await routineMember(request, planId);
  const { submission, status } = await parseForm(request, PlayerForm);
  if (submission.status !== "success") return data(submission.reply(), { status });
  const { intent, step, timeZone } = submission.value;
  const outcome = await playerAction({
    user,
    planId,
    intent,
    step,
    browserTimeZone: browserTimeZone(request.headers.get("Cookie"), timeZone),
    visitorId: context.visitorId,
  });
  if (!outcome) throw notFound(request);
  return isRefusal(outcome) ? replyRefused(submission, outcome) : goTo(outcome);
}

export default function PlanPlayer() {
  const { plan, step, completedSteps, finishedToday } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const errors = formErrorsOf(lastResult);
  const navigation = useNavigation();
  const intent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const finishing = intent === "finish";
  const completing = intent === "complete-step";

  const total = plan.stepCount;
  const percent = Math.round((step.number / total) * 100);
  const isLast = step.number === total;
  const stepDone = completedSteps.includes(step.number);
  const allDone = completedSteps.length >= total;

  return (
    <div className="mx-auto w-full max-w-2xl px-5 pb-16 pt-5 sm:pt-8">
      <div className="flex items-center justify-between gap-4">
        <p className="truncate text-sm font-semibold uppercase tracking-wider text-muted">{plan.name}</p>
        <p className="shrink-0 text-sm font-semibold text-rose-700">
          Step {step.number} of {total} <span className="text-muted">· {percent}%</span>
        </p>
      </div>
      <div className="mt-3">
        <Progress value={percent} label="Routine progress" />
      </div>

      <article key={step.number} className="mt-6 animate-step-in">
        <h1 className="flex flex-wrap items-center gap-3 text-3xl font-semibold sm:text-4xl">
          {step.title}
          {stepDone ? (
            <span className="inline-flex items-center gap-1 rounded-full bg-[#eef3ee] px-3 py-1 font-sans text-sm font-semibold tracking-normal text-sage">
              <CheckIcon className="h-3.5 w-3.5" /> Done
            </span>
          ) : null}
        </h1>

        {step.note ? (
          <p className="mt-3 inline-flex items-center gap-2 rounded-full bg-rose-50 px-3 py-1 text-sm font-semibold text-rose-700" data-testid="step-note">
            <SparkleIcon className="h-4 w-4" /> {step.note}
          </p>
        ) : null}

        <figure className={`card mt-5 overflow-hidden ${step.video ? "" : "relative"}`}>
          <VideoOrPicture video={step.video} image={step.image} sizes="(min-width: 42rem) 40rem, 100vw" className="aspect-[8/5] h-auto w-full" />
          <figcaption
            className={
              step.video ? "p-4 sm:p-5" : "m-3 rounded-2xl bg-white/95 p-4 sm:absolute sm:inset-x-4 sm:bottom-4 sm:m-0 sm:shadow-soft sm:backdrop-blur"
            }
          >
            {step.video ? (
              <p className="flex items-center justify-between gap-3 text-sm font-semibold text-rose-700">
                <span>Video Tutorial · {step.video.title}</span>
                {step.video.duration ? <span className="shrink-0 font-normal text-muted">{step.video.duration}</span> : null}
              </p>
            ) : null}
            <p className={`text-sm text-ink/90 sm:text-base ${step.video ? "mt-2" : ""}`}>{step.description}</p>
          </figcaption>
        </figure>

        <section className="card mt-5 p-5 sm:p-6" aria-labelledby="tips-title">
          <h2 id="tips-title" className="text-xl font-semibold">
            Tips for You
          </h2>
          <div className="mt-4">
            <TipList tips={step.tips} />
          </div>
        </section>
      </article>

      {errors ? (
        <div className="mt-5">
          <FormAlert errors={errors} />
        </div>
      ) : null}

      {allDone ? (
        <p className="mt-6 text-center font-display text-xl" data-testid="finish-note">
          {finishedToday ? "Today's routine is already done. Lovely work!" : "Every step is done. Ready to wrap up?"}
        </p>
      ) : null}

      {/* The primary action stays at the bottom of the screen while the step scrolls (sticky, so
          it comes to rest under the tips at the end): on screen without scrolling on a phone and
          on a laptop, its label on one line. Once every step is done, it is 'Finish Today's Routine'. */}
      <div
        className="sticky bottom-0 z-20 -mx-5 mt-6 border-t border-line/70 bg-cream/95 px-5 pb-[max(0.75rem,env(safe-area-inset-bottom))] pt-3 backdrop-blur sm:bottom-4 sm:mx-0 sm:rounded-full sm:border sm:px-3 sm:pb-3 sm:shadow-soft"
        data-testid="player-actions"
      >
        {allDone ? (
          <Form method="post" className="grid">
            <input type="hidden" name="intent" value="finish" />
            <input type="hidden" name="step" value={step.number} />
            <TimeZoneField />
            <button type="submit" className="btn-primary w-full whitespace-nowrap px-4 sm:w-full sm:px-6" disabled={finishing}>
              {finishing ? "Completing..." : "Finish Today's Routine"}
              <CheckIcon />
            </button>
          </Form>
        ) : (
          <div className="grid grid-cols-[auto_1fr] gap-3">
            {step.number > 1 ? (
              <Link to={`?step=${step.number - 1}`} className="btn-secondary whitespace-nowrap px-4 sm:px-6" preventScrollReset={false}>
                <ArrowLeftIcon /> Previous
              </Link>
            ) : (
              <button type="button" className="btn-secondary cursor-not-allowed whitespace-nowrap px-4 opacity-50 sm:px-6" disabled>
                <ArrowLeftIcon /> Previous
              </button>
            )}
            <Form method="post" className="grid">
              <input type="hidden" name="intent" value="complete-step" />
              <input type="hidden" name="step" value={step.number} />
              <TimeZoneField />
              <button type="submit" className="btn-primary w-full whitespace-nowrap px-4 sm:w-full sm:min-w-0 sm:px-6" disabled={completing}>
                {isLast ? "Complete Step" : "Complete & Next"}
                {isLast ? <CheckIcon /> : <ArrowRightIcon />}
              </button>
            </Form>
          </div>
        )}
      </div>

      <div className="mt-8 text-center">
        <p className="font-semibold" data-testid="completed-count">
          {completedSteps.length} of {total} completed
        </p>
        <ol className="mt-3 flex justify-center gap-2" aria-label="Steps">
          {plan.titles.map((title, i) => {
            const n = i + 1;
            const done = completedSteps.includes(n);
            return (
              <li key={n}>
                <Link
                  to={`?step=${n}`}
                  aria-label={`Step ${n}: ${title}${done ? " (completed)" : ""}`}
                  aria-current={n === step.number ? "step" : undefined}
                  className={`flex h-9 w-9 items-center justify-center rounded-full border-2 text-sm font-semibold ${
                    done ? "border-rose-500 bg-rose-500 text-white" : "border-line bg-white text-muted"
                  } ${n === step.number ? "ring-4 ring-rose-100" : ""}`}
                >
                  {done ? <CheckIcon className="h-4 w-4" /> : n}
                </Link>
              </li>
            );
          })}
        </ol>
      </div>

      <div className="mt-8 text-center">
        <Link to="/home" className="btn-secondary">
          Back to Home
        </Link>
      </div>
    </div>
  );
}
