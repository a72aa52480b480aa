/**
 * /home (no guard). Signed out: an invitation to sign in or take the quiz. Signed in: the plan
 * card with the streak and this week, 'Do Today's Routine', the plan's cards, a picker for
 * members with several plans, and the bottom navigation.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { getSession, requireUser } from "~/auth/guards.server";
import { FormAlert } from "~/components/ui/form";
import { CheckIcon, SparkleIcon } from "~/components/ui/icons";
import { freezeNote } from "~/members/freeze-note";
import { followPlan, homeView } from "~/members/home.server";
import { AvoidIcon, AvoidList, BottomNav, FlameIcon, ProductGrid, ProductIcon, SectionCard, TipList, TipsIcon } from "~/members/components/member-ui";
import { browserTimeZone } from "~/members/time-zone.server";
import { formErrorsOf } from "~/utils/form-errors";
import { parseForm, replyRefused } from "~/utils/form.server";
import { isRefusal } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";
import { seo } from "~/utils/seo";
import { pageMayBeStored, type PageInput } from "~/utils/page-record.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Home · Glow Coach", description: "Your plan, your streak and today's routine." });

/** What /home, root layout included, is rendered from (checked against its render's statements: stored-page-reads.test.ts). */
const HOME_READS = [
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

export async function loader({ request }: LoaderFunctionArgs) {
  // Kept and answered again from memory to this browser while what it reads stays the same (ADR 26, 40).
  pageMayBeStored(HOME_READS);
  const cookieHeader = request.headers.get("Cookie");
  // A session of either kind: a purchase session sees the routine it paid for.
  const user = (await getSession(request))?.user ?? null;
  return homeView({ user, browserTimeZone: browserTimeZone(cookieHeader), cookieHeader });
}

/** The plan picker's buttons: the plan to follow. */
const ChoosePlanForm = z.object({
  intent: z.literal("choose-plan", { error: "Please use the buttons on the page." }),
  planId: z.string({ error: "Please use the buttons on the page." }).max(100, { error: "You can only follow a plan you have." }),
});

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const { submission, status } = await parseForm(request, ChoosePlanForm);
  if (submission.status !== "success") return data(submission.reply(), { status });
  const outcome = await followPlan(user, submission.value.planId);
  return isRefusal(outcome) ? replyRefused(submission, outcome) : goTo(outcome);
}

/** Coming back to the tab (maybe the next morning, or after finishing on the phone) refreshes the streak. */
function useRefreshWhenVisible() {
  const { revalidate } = useRevalidator();
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === "visible") revalidate();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [revalidate]);
}

export default function Home() {
  const view = useLoaderData<typeof loader>();
  useRefreshWhenVisible();
  if (!view.signedIn) return <GuestHome guest={view.guest} trustFooter={view.trustFooter} />;
  return <MemberHome view={view} />;
}

function GuestHome({
  guest,
  trustFooter,
}: {
  guest: { title: string; text: string; signInLabel: string; quizLabel: string; quizHref: string };
  trustFooter: string;
}) {
  return (
    <div className="flex flex-1 flex-col">
      <div className="mx-auto w-full max-w-3xl flex-1 px-5 pt-6 sm:pt-10">
        <section className="card overflow-hidden" aria-labelledby="guest-title">
          <div className="bg-gradient-to-br from-rose-50 via-white to-sand/60 px-5 py-8 text-center sm:px-10 sm:py-12">
            <span
              className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-white text-rose-600 shadow-soft ring-1 ring-rose-100"
              aria-hidden="true"
            >
              <SparkleIcon className="h-7 w-7" />
            </span>
            <h1 id="guest-title" className="mt-5 text-3xl font-semibold sm:text-4xl">
              {guest.title}
            </h1>
            <p className="mx-auto mt-3 max-w-xl text-lg text-muted">{guest.text}</p>
            <div className="mt-7 flex flex-col justify-center gap-3 sm:flex-row">
              <Link to={`/login?${new URLSearchParams({ redirectTo: "/home" })}`} className="btn-primary">
                {guest.signInLabel}
              </Link>
              <Link to={guest.quizHref} className="btn-secondary">
                {guest.quizLabel}
              </Link>
            </div>
          </div>
        </section>
        <p className="mt-8 text-center text-sm text-muted">{trustFooter}</p>
      </div>
      <BottomNav routineHref={null} />
    </div>
  );
}

type MemberView = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { signedIn: true }>;

function MemberHome({ view }: { view: MemberView }) {
  const { plan, quiz, picker, streak, motivation, routine, cards, trustFooter, reminderOffer } = view;
  const errors = formErrorsOf(useActionData<typeof action>());
  const days = streak.currentStreak;

  return (
    <div className="flex flex-1 flex-col">
      <div className="mx-auto w-full max-w-3xl flex-1 px-5 pt-6 sm:pt-10">
        {errors ? (
          <div className="mb-4">
            <FormAlert errors={errors} />
          </div>
        ) : null}
        <section className="card overflow-hidden" aria-labelledby="plan-name">
          <div className="bg-gradient-to-br from-rose-50 via-white to-sand/60 px-5 pb-6 pt-5 sm:px-8 sm:pt-7">
            {plan?.personalised ? (
              <span className="inline-flex items-center gap-1.5 rounded-full bg-white/90 px-3 py-1 text-xs font-semibold uppercase tracking-wider text-rose-700 ring-1 ring-rose-100">
                <SparkleIcon className="h-3.5 w-3.5" /> Personalized
              </span>
            ) : null}
            <h1 id="plan-name" className="mt-3 text-3xl font-semibold sm:text-4xl">
              {plan?.name ?? "Your plan is on its way"}
            </h1>
            <p className="mt-2 max-w-xl text-muted">{plan?.description ?? "We're preparing your routine. Please check back soon."}</p>
            {plan?.reason ? (
              <p className="mt-3 flex items-center gap-2 font-semibold text-rose-700" data-testid="plan-reason">
                <CheckIcon className="h-4 w-4" /> {plan.reason}
              </p>
            ) : null}
            {quiz ? (
              <p className="mt-3 max-w-xl rounded-2xl bg-white/80 px-4 py-3 text-sm text-ink/90 ring-1 ring-rose-100">
                {quiz.text}{" "}
                <Link to={quiz.href} className="font-semibold text-rose-700 underline underline-offset-2">
                  {quiz.label}
                </Link>
              </p>
            ) : null}
            {plan && !plan.owned ? <p className="mt-3 text-sm text-muted">This plan isn't part of your account yet.</p> : null}
            <p className="mt-5 inline-flex items-center gap-2 rounded-full bg-white px-4 py-2 font-semibold text-ink shadow-soft" data-testid="streak">
              <FlameIcon className="h-5 w-5 text-gold" /> Current Streak: {days} {days === 1 ? "day" : "days"}
            </p>
            <p className="mt-3 flex items-center gap-2 text-sm text-ink/80" data-testid="freezes">
              <SnowflakeIcon className="h-4 w-4 shrink-0 text-sky-700" />
              {freezeNote(streak)}
            </p>
          </div>

          <div className="px-5 pb-6 pt-5 sm:px-8">
            <h2 className="sr-only">This week</h2>
            <ol className="grid grid-cols-7 gap-1.5 sm:gap-3" aria-label="This week, Monday to Sunday">
              {streak.weeklyCompletions.map((day) => (
                <li key={day.date} className="flex flex-col items-center gap-1.5">
                  <span className={`text-xs font-semibold ${day.isToday ? "text-rose-700" : "text-muted"}`} aria-hidden="true">
                    {day.letter}
                  </span>
                  <span
                    data-completed={day.completed ? "true" : "false"}
                    data-frozen={day.frozen ? "true" : undefined}
                    data-today={day.isToday ? "true" : undefined}
                    aria-label={`${day.name}${day.isToday ? " (today)" : ""}: ${day.completed ? "completed" : day.frozen ? "streak freeze used" : "not completed"}`}
                    className={`flex aspect-square w-full max-w-11 items-center justify-center rounded-full border-2 transition-colors ${
                      day.completed
                        ? "border-rose-500 bg-rose-500 text-white"
                        : day.frozen
                          ? "border-sky-400 bg-sky-100 text-sky-700"
                          : day.isToday
                            ? "border-rose-500 bg-white"
                            : "border-line bg-white"
                    } ${day.isToday ? "ring-4 ring-rose-100" : ""}`}
                    role="img"
                  >
                    {day.completed ? (
                      <svg
                        viewBox="0 0 24 24"
                        className="h-4 w-4"
                        fill="none"
                        stroke="currentColor"
                        strokeWidth="3"
                        strokeLinecap="round"
                        strokeLinejoin="round"
                        aria-hidden="true"
                      >
                        <path d="m5 12.5 4.5 4.5L19 7.5" />
                      </svg>
                    ) : day.frozen ? (
                      <SnowflakeIcon className="h-4 w-4" />
                    ) : null}
                  </span>
                </li>
              ))}
            </ol>
            <p className="mt-5 text-center font-display text-lg text-ink/90">{motivation}</p>
            <div className="mt-5 flex justify-center">
              {routine.state === "ready" ? (
                <Link to={routine.href} className="btn-primary w-full text-lg sm:w-auto">
                  Do Today's Routine
                </Link>
              ) : (
                <button type="button" className="btn-primary w-full text-lg sm:w-auto" disabled>
                  Do Today's Routine
                </button>
              )}
            </div>
          </div>
        </section>

        {reminderOffer ? (
          <section className="card mt-6 flex flex-col items-center gap-3 p-5 text-center sm:p-6" aria-labelledby="reminder-offer-title">
            <h2 id="reminder-offer-title" className="text-xl font-semibold">
              Want a nudge tomorrow?
            </h2>
            <p className="text-muted">We'll e-mail you at 8:00 AM your time, only if the day's routine isn't done yet.</p>
            <Form method="post" action="/profile">
              <input type="hidden" name="intent" value="reminder" />
              <input type="hidden" name="reminder" value="on" />
              <input type="hidden" name="hour" value="8" />
              <input type="hidden" name="from" value="home" />
              <button type="submit" className="btn-primary">
                Remind Me Daily
              </button>
            </Form>
            <Link to="/profile#reminder-title" className="text-sm font-semibold text-rose-700 underline underline-offset-2">
              Choose another hour
            </Link>
          </section>
        ) : null}

        {picker ? (
          <section className="card mt-6 p-5 sm:p-6" aria-labelledby="picker-title">
            <h2 id="picker-title" className="text-xl font-semibold">
              {picker.title}
            </h2>
            <ul className="mt-4 grid gap-3 sm:grid-cols-2">
              {picker.plans.map((owned) => (
                <li key={owned.id}>
                  {owned.id === picker.current ? (
                    <p
                      className="flex items-center justify-between gap-3 rounded-2xl border-2 border-rose-500 bg-rose-50 px-4 py-3 font-semibold"
                      aria-current="true"
                    >
                      {owned.name}
                      <span className="inline-flex items-center gap-1 text-sm text-rose-700">
                        <CheckIcon className="h-4 w-4" /> Following
                      </span>
                    </p>
                  ) : (
                    <Form method="post" className="grid">
                      <input type="hidden" name="intent" value="choose-plan" />
                      <input type="hidden" name="planId" value={owned.id} />
                      <button
                        type="submit"
                        className="flex items-center justify-between gap-3 rounded-2xl border-2 border-line bg-white px-4 py-3 text-left font-semibold hover:border-rose-200"
                      >
                        {owned.name}
                        <span className="text-sm text-rose-700">Follow this plan</span>
                      </button>
                    </Form>
                  )}
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        {cards ? (
          <div className="mt-6 grid gap-6">
            <SectionCard title="Tips & Tricks" icon={<TipsIcon />}>
              <TipList tips={cards.tips} />
            </SectionCard>
            <SectionCard title="Recommended for You" icon={<ProductIcon />}>
              <ProductGrid products={cards.products} />
            </SectionCard>
            <SectionCard title="What to Avoid" icon={<AvoidIcon />}>
              <AvoidList items={cards.avoid} />
            </SectionCard>
          </div>
        ) : null}

        <p className="mt-8 text-center text-sm text-muted">{trustFooter}</p>
      </div>
      <BottomNav routineHref={routine.state === "ready" ? routine.href : null} />
    </div>
  );
}

/** A streak freeze: a missed day it covered, and the freezes a member holds. */
function SnowflakeIcon({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M12 2v20M4.93 6l14.14 12M19.07 6 4.93 18M9 4l3 2 3-2M9 20l3-2 3 2" />
    </svg>
  );
}
