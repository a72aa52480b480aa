/**
 * /home (no guard): the plan card with the streak and this week, 'Do Today's Routine',
 * the fixed cards and the bottom navigation.
 */
import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { SparkleIcon } from "~/components/ui/icons";
import { homeView } from "~/members/home.server";
import { AvoidIcon, AvoidList, BottomNav, FlameIcon, ProductGrid, ProductIcon, SectionCard, TipList, TipsIcon } from "~/members/components/member-ui";
import { seo } from "~/utils/seo";

export const meta: MetaFunction = (args) => seo(args, { title: "Home · Glow Coach", description: "Your plan, your streak and today's routine." });

export async function loader({ request }: LoaderFunctionArgs) {
  return homeView(request);
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
  const { plan, streak, motivation, routine, cards, trustFooter } = useLoaderData<typeof loader>();
  useRefreshWhenVisible();
  const days = streak.currentStreak;

  return (
    <div className="flex flex-1 flex-col">
      <div className="mx-auto w-full max-w-3xl flex-1 px-5 pt-6 sm:pt-10">
        <section className="card overflow-hidden" aria-labelledby="plan-name">
          <div className="bg-gradient-to-br from-rose-50 via-white to-sand/60 px-5 pb-6 pt-5 sm:px-8 sm:pt-7">
            <span className="inline-flex items-center gap-1.5 rounded-full bg-white/90 px-3 py-1 text-xs font-semibold uppercase tracking-wider text-rose-700 ring-1 ring-rose-100">
              <SparkleIcon className="h-3.5 w-3.5" /> Personalized
            </span>
            <h1 id="plan-name" className="mt-3 text-3xl font-semibold sm:text-4xl">
              {plan?.name ?? "Your plan is on its way"}
            </h1>
            <p className="mt-2 max-w-xl text-muted">{plan?.description ?? "We're preparing your routine. Please check back soon."}</p>
            <p className="mt-5 inline-flex items-center gap-2 rounded-full bg-white px-4 py-2 font-semibold text-ink shadow-soft" data-testid="streak">
              <FlameIcon className="h-5 w-5 text-gold" /> Current Streak: {days} {days === 1 ? "day" : "days"}
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
                    data-today={day.isToday ? "true" : undefined}
                    aria-label={`${day.name}${day.isToday ? " (today)" : ""}: ${day.completed ? "completed" : "not completed"}`}
                    className={`flex aspect-square w-full max-w-11 items-center justify-center rounded-full border-2 text-white transition-colors ${
                      day.completed ? "border-rose-500 bg-rose-500" : day.isToday ? "border-rose-500 bg-white" : "border-line bg-white"
                    } ${day.isToday ? "ring-4 ring-rose-100" : ""}`}
                    role="img"
                  >
                    {day.completed ? (
                      <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
                        <path d="m5 12.5 4.5 4.5L19 7.5" />
                      </svg>
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

        <p className="mt-8 text-center text-sm text-muted">{trustFooter}</p>
      </div>
      <BottomNav routineHref={routine.state === "ready" ? routine.href : null} />
    </div>
  );
}
