/**
 * An offer page rendered from its content document: sections in the document's order,
 * one renderer per section type. Works without JavaScript (plan buttons are forms, scroll
 * buttons are anchors, the FAQ is <details>); JavaScript adds the ticking countdown, plan
 * selection and the button's busy state.
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import type { MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CheckIcon, ShieldIcon, SparkleIcon, StarIcon } from "~/components/ui/icons";
import { showToast } from "~/components/ui/toaster";
import { useHydrated } from "~/hooks/use-hydrated";
import { formatCountdown } from "../catalogue";
import type { OfferSection } from "../offer-schema";
import type { OfferView, Ownership, ProductMatch } from "../offer-page.server";

type LoaderData = {
  offer: OfferView;
  remainingSeconds: number | null;
  matches: ProductMatch[];
  reason: string | null;
  personalised: boolean;
  owned: Ownership | null;
  onSale: boolean;
};
type ActionData = { checkoutError: { title: string; description: string } } | { alreadyOwned: string } | undefined;

type PageState = {
  /** Seconds left on the countdown; 0 once it has run out (then nothing about it is shown). */
  seconds: number;
  selected: string | null;
  select: (planId: string) => void;
  offer: OfferView;
  owned: Ownership | null;
  matches: ProductMatch[];
  reason: string | null;
  personalised: boolean;
  /** False with PAYMENTS=off: plan buttons say the plan is not on sale. */
  onSale: boolean;
};
const PageContext = createContext<PageState | null>(null);
function usePage(): PageState {
  const state = useContext(PageContext);
  if (!state) throw new Error("offer sections render inside OfferPage");
  return state;
}

/** Ticks once a second from the server's remaining time down to 0 and stops there (the page then hides the countdown). */
export function useCountdown(initialSeconds: number | null): number {
  const [seconds, setSeconds] = useState(initialSeconds ?? 0);
  useEffect(() => {
    if (initialSeconds === null || initialSeconds <= 0) return;
    const deadline = Date.now() + initialSeconds * 1000;
    const timer = setInterval(() => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setSeconds(left);
      if (left === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [initialSeconds]);
  return seconds;
}

/** The anchor a scroll button points at: "#plan-annual" → "annual". */
function planIdOf(href: string): string | null {
  return href.startsWith("#plan-") ? href.slice("#plan-".length) : null;
}

export function OfferPage() {
  const { offer, remainingSeconds, matches, reason, personalised, owned, onSale } = useLoaderData<LoaderData>();
  const actionData = useActionData<ActionData>();
  const hydrated = useHydrated();
  const seconds = useCountdown(remainingSeconds);
  const [selected, setSelected] = useState<string | null>(null);
  const checkoutError = actionData && "checkoutError" in actionData ? actionData.checkoutError : null;

  useEffect(() => {
    if (checkoutError) showToast({ ...checkoutError, variant: "destructive" });
  }, [checkoutError]);

  return (
    <PageContext.Provider value={{ seconds, selected, select: setSelected, offer, owned, matches, reason, personalised, onSale }}>
      <div className="pb-16">
        {checkoutError && !hydrated ? (
          <div role="alert" className="mx-auto mt-4 max-w-xl rounded-2xl border border-danger/30 bg-[#fdf0ef] px-4 py-3 text-danger">
            <p className="font-semibold">{checkoutError.title}</p>
            <p className="text-sm">{checkoutError.description}</p>
          </div>
        ) : null}
        {owned ? (
          <OwnedNotice owned={owned} alert={!!actionData && "alreadyOwned" in actionData} />
        ) : actionData && "alreadyOwned" in actionData ? (
          // A page opened before this purchase: the server refused a second checkout; say why.
          <div role="alert" className="mx-auto mt-4 max-w-xl rounded-2xl border border-sage/30 bg-[#f1f5f1] px-4 py-3 text-center">
            <p className="font-semibold">{actionData.alreadyOwned}</p>
            <Link to="/home" className="mt-2 inline-block font-semibold text-rose-700 underline underline-offset-2">
              Go to My Plan
            </Link>
          </div>
        ) : null}
        {offer.sections.map((section, i) => (
          <Section key={i} section={section} first={i === 0} />
        ))}
      </div>
    </PageContext.Provider>
  );
}

/** What a member who already has this product sees: what they have, and where to go instead of paying again. */
function OwnedNotice({ owned, alert }: { owned: Ownership; alert: boolean }) {
  return (
    <section className="mx-auto mt-6 w-full max-w-2xl px-5" aria-labelledby="owned-title">
      <div className="rounded-card border border-sage/30 bg-[#f1f5f1] p-5 text-center shadow-soft sm:p-6" role={alert ? "alert" : undefined}>
        <p id="owned-title" className="flex items-center justify-center gap-2 text-xl font-semibold text-ink">
          <CheckIcon className="h-5 w-5 text-sage" /> {owned.headline}
        </p>
        <p className="mt-1 text-muted">It's already part of your account, so there's nothing to buy here.</p>
        <div className="mt-4 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to={owned.planHref} className="btn-primary">
            Go to My Plan
          </Link>
          {owned.recurring ? (
            <form method="post" action="/billing/portal">
              <input type="hidden" name="entitlement" value={owned.entitlementId} />
              <button type="submit" className="btn-secondary w-full">
                Manage Subscription
              </button>
            </form>
          ) : null}
        </div>
      </div>
    </section>
  );
}

function Section({ section, first }: { section: OfferSection; first: boolean }) {
  switch (section._type) {
    case "countdownBanner":
      return <CountdownBanner text={section.text} badge={section.badge} />;
    case "hero":
      return <Hero section={section} first={first} />;
    case "plans":
      return <Plans section={section} />;
    case "lockedProducts":
      return <LockedProducts section={section} />;
    case "routine":
      return <Routine section={section} />;
    case "urgency":
      return <Urgency section={section} />;
    case "tips":
      return <Tips section={section} />;
    case "testimonials":
      return <Testimonials section={section} />;
    case "explanation":
      return <Explanation section={section} />;
    case "guarantee":
      return <Guarantee section={section} />;
    case "whatsInside":
      return <WhatsInside section={section} />;
    case "faq":
      return <Faq section={section} />;
    case "finalCta":
      return <FinalCta section={section} />;
    case "secureCheckout":
      return <SecureCheckout text={section.text} />;
  }
}

type Of<T extends OfferSection["_type"]> = Extract<OfferSection, { _type: T }>;

function Wrap({ children, className = "", id }: { children: ReactNode; className?: string; id?: string }) {
  return (
    <section id={id} className={`mx-auto w-full max-w-5xl px-5 pt-12 sm:pt-16 ${className}`}>
      {children}
    </section>
  );
}

function SectionTitle({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <h2 className="text-3xl font-semibold leading-tight sm:text-4xl">{title}</h2>
      {subtitle ? <p className="mt-3 text-lg text-muted">{subtitle}</p> : null}
    </div>
  );
}

/** The countdown's current text, e.g. "Offer expires in 9:59". */
function Timed({ text }: { text: string }) {
  const { seconds } = usePage();
  const [before, after] = text.split("{time}");
  if (after === undefined) return <>{text}</>;
  return (
    <>
      {before}
      <time className="font-semibold tabular-nums" data-countdown>
        {formatCountdown(seconds)}
      </time>
      {after}
    </>
  );
}

/** A link to a plan card that also selects it (the offer's buttons that scroll to the plans). */
/** "Unlock …" under locked content: scrolls to (and selects) the plan it names. */
function UnlockButton({ unlock }: { unlock: { href: string; label: string } }) {
  return (
    <div className="mt-6 text-center">
      <ScrollButton href={unlock.href} className="btn-secondary">
        <LockIcon /> {unlock.label}
      </ScrollButton>
    </div>
  );
}

function ScrollButton({ href, children, className }: { href: string; children: ReactNode; className: string }) {
  const { select } = usePage();
  const planId = planIdOf(href);
  return (
    <a
      href={href}
      className={className}
      onClick={(event) => {
        const target = document.getElementById(href.slice(1));
        if (!target) return;
        event.preventDefault();
        if (planId) select(planId);
        target.scrollIntoView({ behavior: "smooth", block: "center" });
        history.replaceState(null, "", href);
      }}
    >
      {children}
    </a>
  );
}

/** A countdown is live while it has time left; a run-out (or no) countdown shows nothing. */
function useCountdownLive(): boolean {
  return usePage().seconds > 0;
}

function CountdownBanner({ text, badge }: { text: string; badge: string }) {
  if (!useCountdownLive()) return null;
  return (
    <div className="sticky top-0 z-30 bg-rose-700 text-white shadow-soft">
      <p className="mx-auto flex max-w-5xl flex-wrap items-center justify-center gap-x-3 gap-y-1 px-5 py-2.5 text-sm sm:text-base" aria-live="off">
        <span>
          <Timed text={text} />
        </span>
        <span className="rounded-full bg-white px-3 py-0.5 text-sm font-semibold text-rose-700">{badge}</span>
      </p>
    </div>
  );
}

function Stars({ className = "h-4 w-4" }: { className?: string }) {
  return (
    <span className="inline-flex text-gold" aria-hidden="true">
      {[0, 1, 2, 3, 4].map((i) => (
        <StarIcon key={i} className={className} />
      ))}
    </span>
  );
}

function Hero({ section, first }: { section: Of<"hero">; first: boolean }) {
  return (
    <section className={`mx-auto w-full max-w-3xl px-5 text-center ${first ? "pt-10 sm:pt-14" : "pt-8 sm:pt-12"}`}>
      {section.badge ? <p className="mx-auto inline-flex rounded-full bg-rose-100 px-4 py-1.5 text-sm font-semibold text-rose-700">{section.badge}</p> : null}
      <h1 className="mt-4 text-4xl font-semibold leading-[1.1] sm:text-5xl">{section.headline}</h1>
      {section.subheadline ? <p className="mx-auto mt-4 max-w-2xl text-lg text-muted">{section.subheadline}</p> : null}
      {section.rating ? (
        <p className="mt-5 flex flex-wrap items-center justify-center gap-2 text-sm">
          <Stars />
          <span className="font-semibold">{section.rating.value}</span>
          <span className="text-muted">{section.rating.label}</span>
        </p>
      ) : null}
      {section.benefits.length ? (
        <ul className="mx-auto mt-6 grid max-w-xl gap-2.5 text-left">
          {section.benefits.map((benefit) => (
            <li key={benefit} className="flex items-start gap-3">
              <span className="mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-rose-100 text-rose-700">
                <CheckIcon />
              </span>
              <span>{benefit}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {section.proof.length ? (
        <ul className="mt-6 flex flex-wrap justify-center gap-2">
          {section.proof.map((p) => (
            <li key={p} className="rounded-full border border-line bg-white px-3 py-1 text-sm text-muted">
              {p}
            </li>
          ))}
        </ul>
      ) : null}
      {section.cta ? (
        <div className="mt-8">
          <ScrollButton href={section.cta.href} className="btn-primary">
            {section.cta.label}
          </ScrollButton>
        </div>
      ) : null}
    </section>
  );
}

/**
 * The form behind every plan button: the server prices the plan from its id. A member who
 * already has this product sees their plan instead, or switches plans in the billing portal.
 */
function PlanButton({ planId, label, className = "btn-primary w-full" }: { planId: string; label: string; className?: string }) {
  const { owned } = usePage();
  if (owned) return <OwnerButton owned={owned} planId={planId} className={className} />;
  return <BuyButton planId={planId} label={label} className={className} />;
}

function OwnerButton({ owned, planId, className }: { owned: Ownership; planId: string; className: string }) {
  const { offer } = usePage();
  if (planId === owned.planId || !owned.switchTo.includes(planId)) {
    return (
      <Link to={owned.planHref} className={className}>
        {planId === owned.planId ? "Your plan · Go to My Plan" : "Go to My Plan"}
      </Link>
    );
  }
  const plan = offer.plans.find((p) => p.id === planId);
  return (
    <form method="post" action="/billing/portal">
      <input type="hidden" name="entitlement" value={owned.entitlementId} />
      <input type="hidden" name="switchTo" value={planId} />
      <button type="submit" className={className}>
        Switch to {plan?.name ?? "this plan"}
      </button>
    </form>
  );
}

function BuyButton({ planId, label, className }: { planId: string; label: string; className: string }) {
  const { offer, select, onSale } = usePage();
  const navigation = useNavigation();
  // PAYMENTS=off: the page stays, the button says why there is nothing to press.
  if (!onSale)
    return <p className="rounded-2xl border border-dashed border-line px-4 py-3 text-center text-sm text-muted">This plan is not on sale right now.</p>;
  const busy =
    navigation.state !== "idle" &&
    navigation.formMethod?.toLowerCase() === "post" &&
    navigation.formData?.get("planId") === planId &&
    navigation.formAction === offer.path;
  return (
    <Form method="post" action={offer.path} onSubmit={() => select(planId)}>
      <input type="hidden" name="intent" value="checkout" />
      <input type="hidden" name="planId" value={planId} />
      <button type="submit" className={className} disabled={busy} aria-busy={busy}>
        {busy ? offer.processingLabel : label}
      </button>
    </Form>
  );
}

function Plans({ section }: { section: Of<"plans"> }) {
  const { offer, selected } = usePage();
  const plans = section.planIds.map((id) => offer.plans.find((p) => p.id === id)!).filter(Boolean);
  return (
    <Wrap>
      {section.title ? <SectionTitle title={section.title} subtitle={section.subtitle} /> : null}
      <div className={`mt-8 grid gap-5 ${plans.length > 1 ? "md:grid-cols-2" : "mx-auto max-w-md"}`}>
        {plans.map((plan) => {
          const isSelected = selected === plan.id;
          return (
            <article
              key={plan.id}
              id={`plan-${plan.id}`}
              aria-label={plan.name}
              data-selected={isSelected ? "true" : undefined}
              className={`card relative flex scroll-mt-24 flex-col p-6 transition-shadow sm:p-8 target:ring-4 target:ring-rose-200 ${
                plan.featured ? "border-rose-200" : ""
              } ${isSelected ? "ring-4 ring-rose-500/60" : ""}`}
            >
              {plan.badge ? (
                <p className="absolute -top-3.5 left-1/2 -translate-x-1/2 whitespace-nowrap rounded-full bg-rose-600 px-4 py-1 text-sm font-semibold text-white shadow-soft">
                  {plan.badge}
                </p>
              ) : null}
              <h3 className="text-center text-2xl font-semibold">{plan.name}</h3>
              <p className="mt-4 flex items-baseline justify-center gap-2">
                {plan.compareAt ? (
                  <>
                    {/* Struck-through text is not announced as such: say it in words. */}
                    <span className="sr-only">was</span>
                    <s className="text-xl text-muted">{plan.compareAt}</s>
                    <span className="sr-only">now</span>
                  </>
                ) : null}
                <span className="font-display text-5xl font-semibold text-ink">{plan.price}</span>
                <span className="text-muted">{plan.priceSuffix}</span>
              </p>
              {plan.priceNote ? <p className="mt-2 text-center font-semibold text-rose-700">{plan.priceNote}</p> : null}
              {plan.features.length ? (
                <ul className="mt-6 grid flex-1 content-start gap-2.5">
                  {plan.features.map((feature) => (
                    <li key={feature} className="flex items-start gap-3 text-[15px]">
                      <CheckIcon className="mt-1 h-4 w-4 shrink-0 text-sage" />
                      <span>{feature}</span>
                    </li>
                  ))}
                </ul>
              ) : null}
              <div className="mt-7">
                <PlanButton planId={plan.id} label={plan.buttonLabel} className={plan.featured ? "btn-primary w-full" : "btn-secondary w-full"} />
              </div>
              {plan.finePrint ? (
                <p className="mt-3 flex items-center justify-center gap-1.5 text-center text-sm text-muted">
                  <ShieldIcon className="h-4 w-4 text-sage" />
                  {plan.finePrint}
                </p>
              ) : null}
            </article>
          );
        })}
      </div>
    </Wrap>
  );
}

function LockOverlay({ children }: { children: ReactNode }) {
  return (
    <div className="absolute inset-0 flex items-center justify-center">
      <span className="inline-flex items-center gap-2 rounded-full bg-white/95 px-4 py-1.5 text-sm font-semibold text-ink shadow-soft">
        <LockIcon />
        {children}
      </span>
    </div>
  );
}

function LockIcon({ className = "h-4 w-4" }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" aria-hidden="true">
      <rect x="5" y="10.5" width="14" height="10" rx="2.5" />
      <path d="M8.5 10.5V8a3.5 3.5 0 0 1 7 0v2.5" />
    </svg>
  );
}

function LockedProducts({ section }: { section: Of<"lockedProducts"> }) {
  const { matches, reason, personalised } = usePage();
  if (!matches.length) return null;
  const subtitle = personalised ? section.subtitle : section.generalSubtitle;
  return (
    <Wrap>
      <SectionTitle title={section.title} subtitle={subtitle} />
      {reason ? (
        <p className="mt-3 flex items-center justify-center gap-2 text-center font-semibold text-rose-700" data-testid="offer-reason">
          <CheckIcon className="h-4 w-4" /> {reason}
        </p>
      ) : null}
      <ul className="mt-8 grid gap-4 sm:grid-cols-3">
        {matches.map((product, i) => (
          <li
            key={i}
            className="card relative overflow-hidden p-5"
            aria-label={product.locked ? `${product.fitLabel} ${product.fitPercent}% (locked)` : undefined}
            data-testid="product-match"
          >
            <div className={product.locked ? "select-none blur-[6px]" : undefined} aria-hidden={product.locked || undefined}>
              <div className="flex h-28 items-center justify-center rounded-2xl bg-gradient-to-br from-rose-50 to-sand">
                <SparkleIcon className="h-9 w-9 text-rose-500/70" />
              </div>
              <p className="mt-4 text-sm uppercase tracking-wide text-muted">{product.kind}</p>
              <p className="font-semibold">{product.name ?? "Hidden product name"}</p>
            </div>
            <div className="mt-3">
              <p className="flex items-center justify-between text-sm">
                <span className="font-semibold text-rose-700">{product.fitLabel}</span>
                <span className="font-semibold tabular-nums">{product.fitPercent}%</span>
              </p>
              <div className="mt-1.5 h-2 rounded-full bg-rose-100">
                <div className="h-2 rounded-full bg-rose-500" style={{ width: `${product.fitPercent}%` }} />
              </div>
            </div>
            {product.locked ? <LockOverlay>Locked</LockOverlay> : null}
          </li>
        ))}
      </ul>
      <UnlockButton unlock={section.unlock} />
    </Wrap>
  );
}

function Routine({ section }: { section: Of<"routine"> }) {
  const visible = section.steps.slice(0, section.visibleSteps);
  const locked = section.steps.slice(section.visibleSteps);
  return (
    <Wrap>
      <SectionTitle title={section.title} subtitle={section.subtitle} />
      <ol className="mx-auto mt-8 grid max-w-2xl gap-3">
        {visible.map((step, i) => (
          <li key={step.name} className="card flex gap-4 p-5">
            <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-rose-600 font-semibold text-white">{i + 1}</span>
            <div>
              <p className="font-semibold">{step.name}</p>
              <p className="mt-1 text-muted">{step.detail}</p>
            </div>
          </li>
        ))}
        {locked.length ? (
          <li className="relative">
            <ol className="grid gap-3" start={section.visibleSteps + 1}>
              {locked.map((step, i) => (
                <li key={step.name} className="card flex items-center gap-4 p-5">
                  <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-rose-100 font-semibold text-rose-700">
                    {section.visibleSteps + i + 1}
                  </span>
                  <p className="flex-1 font-semibold">{step.name}</p>
                  <span className="text-muted" role="img" aria-label="Locked">
                    <LockIcon />
                  </span>
                </li>
              ))}
            </ol>
            <div className="pointer-events-none absolute inset-x-0 bottom-0 h-2/3 rounded-b-card bg-gradient-to-b from-transparent to-cream" />
          </li>
        ) : null}
      </ol>
      {locked.length ? (
        <div className="mt-5 flex flex-col items-center gap-3">
          <p className="inline-flex items-center gap-2 font-semibold text-rose-700">
            <LockIcon /> {section.lockedLabel.replaceAll("{count}", String(locked.length))}
          </p>
          <ScrollButton href={section.unlock.href} className="btn-primary">
            {section.unlock.label}
          </ScrollButton>
        </div>
      ) : null}
    </Wrap>
  );
}

function Urgency({ section }: { section: Of<"urgency"> }) {
  const live = useCountdownLive();
  const { owned } = usePage();
  // "Only 4:32 left for discount" is only true while the countdown runs, and never for a member who has the plan.
  if (owned || (section.text.includes("{time}") && !live)) return null;
  return (
    <Wrap>
      <div className="mx-auto flex max-w-2xl flex-col items-center gap-4 rounded-card border border-gold/40 bg-[#fbf3e4] px-6 py-6 text-center sm:flex-row sm:text-left">
        <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-gold/15 text-gold" aria-hidden="true">
          <ClockIcon />
        </span>
        <p className="flex-1 text-lg">
          <Timed text={section.text} />
        </p>
        {section.cta ? (
          <ScrollButton href={section.cta.href} className="btn-primary sm:min-w-0">
            {section.cta.label}
          </ScrollButton>
        ) : null}
      </div>
    </Wrap>
  );
}

function ClockIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" aria-hidden="true">
      <circle cx="12" cy="12" r="8.5" />
      <path d="M12 7.5V12l3 2" />
    </svg>
  );
}

function Tips({ section }: { section: Of<"tips"> }) {
  return (
    <Wrap>
      <SectionTitle title={section.title} />
      <ul className="mt-8 grid gap-4 md:grid-cols-3">
        {section.tips.map((tip) => (
          <li key={tip.title} className="card relative overflow-hidden p-5">
            <div className={tip.locked ? "select-none blur-[5px]" : undefined} aria-hidden={tip.locked || undefined}>
              <p className="font-semibold">{tip.title}</p>
              <p className="mt-2 text-muted">{tip.text}</p>
            </div>
            {tip.locked ? <LockOverlay>{tip.title.split(":")[0]} locked</LockOverlay> : null}
          </li>
        ))}
      </ul>
      <UnlockButton unlock={section.unlock} />
    </Wrap>
  );
}

function Testimonials({ section }: { section: Of<"testimonials"> }) {
  return (
    <Wrap>
      <SectionTitle title={section.title} />
      <ul className="mt-8 grid gap-4 md:grid-cols-3">
        {section.items.map((item) => (
          <li key={item.name} className="card flex flex-col p-5">
            {item.before && item.after ? (
              <div className="mb-4 grid grid-cols-2 gap-2 text-center text-sm">
                <div className="rounded-xl bg-sand px-2 py-3">
                  <p className="text-xs font-semibold uppercase tracking-wide text-muted">Before</p>
                  <p className="mt-1">{item.before}</p>
                </div>
                <div className="rounded-xl bg-rose-50 px-2 py-3">
                  <p className="text-xs font-semibold uppercase tracking-wide text-rose-700">After</p>
                  <p className="mt-1">{item.after}</p>
                </div>
              </div>
            ) : null}
            <Stars />
            <blockquote className="mt-2 flex-1">“{item.quote}”</blockquote>
            <p className="mt-4 text-sm">
              <span className="font-semibold">{item.name}</span> <span className="text-muted">· {item.detail}</span>
            </p>
          </li>
        ))}
      </ul>
    </Wrap>
  );
}

function Explanation({ section }: { section: Of<"explanation"> }) {
  return (
    <Wrap id={section.anchorId} className="scroll-mt-6">
      <div className="card mx-auto max-w-3xl p-6 sm:p-10">
        <h2 className="text-3xl font-semibold">{section.title}</h2>
        {section.paragraphs.map((p) => (
          <p key={p} className="mt-4 text-lg text-muted">
            {p}
          </p>
        ))}
        {section.points.length ? (
          <ol className="mt-6 grid gap-3">
            {section.points.map((point, i) => (
              <li key={point} className="flex items-start gap-3">
                <span className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-rose-100 text-sm font-semibold text-rose-700">{i + 1}</span>
                <span className="pt-0.5">{point}</span>
              </li>
            ))}
          </ol>
        ) : null}
      </div>
    </Wrap>
  );
}

function Guarantee({ section }: { section: Of<"guarantee"> }) {
  return (
    <Wrap>
      <div className="mx-auto flex max-w-2xl items-start gap-4 rounded-card border border-sage/30 bg-[#f1f5f1] p-6">
        <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-sage/15 text-sage">
          <ShieldIcon className="h-6 w-6" />
        </span>
        <div>
          <h2 className="text-xl font-semibold">{section.title}</h2>
          <p className="mt-1 text-lg">{section.text}</p>
        </div>
      </div>
    </Wrap>
  );
}

function WhatsInside({ section }: { section: Of<"whatsInside"> }) {
  return (
    <Wrap>
      <SectionTitle title={section.title} />
      <ul className="mt-8 grid gap-4 sm:grid-cols-2">
        {section.items.map((item) => (
          <li key={item.title} className="card p-6">
            <SparkleIcon className="h-6 w-6 text-rose-500" />
            <h3 className="mt-3 text-xl font-semibold">{item.title}</h3>
            <p className="mt-1 text-muted">{item.text}</p>
          </li>
        ))}
      </ul>
    </Wrap>
  );
}

/**
 * One open item at a time, and the open one can be closed. <details name=...> does both
 * natively; the toggle handler does the same where the name attribute is not supported.
 */
function Faq({ section }: { section: Of<"faq"> }) {
  const group = "offer-faq";
  return (
    <Wrap>
      <SectionTitle title={section.title} />
      <div className="mx-auto mt-8 grid max-w-2xl gap-3">
        {section.items.map((item) => (
          <details
            key={item.question}
            // React 18 passes the attribute through; browsers make the group exclusive.
            {...{ name: group }}
            className="card group px-5 py-1 open:pb-4"
            onToggle={(event) => {
              const opened = event.currentTarget;
              if (!opened.open) return;
              for (const other of document.querySelectorAll<HTMLDetailsElement>(`details[name="${group}"]`)) if (other !== opened) other.open = false;
            }}
          >
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 py-3 font-semibold [&::-webkit-details-marker]:hidden">
              {item.question}
              <span className="text-xl text-rose-700 transition-transform group-open:rotate-45" aria-hidden="true">
                +
              </span>
            </summary>
            <p className="text-muted">{item.answer}</p>
          </details>
        ))}
      </div>
    </Wrap>
  );
}

function FinalCta({ section }: { section: Of<"finalCta"> }) {
  return (
    <Wrap>
      <div className="mx-auto max-w-2xl rounded-card bg-rose-700 px-6 py-10 text-center text-white shadow-soft">
        <h2 className="text-3xl font-semibold">{section.title}</h2>
        {section.text ? <p className="mt-2 text-rose-100">{section.text}</p> : null}
        <div className="mx-auto mt-6 max-w-sm">
          <PlanButton planId={section.planId} label={section.buttonLabel} className="btn-secondary w-full border-white" />
        </div>
      </div>
    </Wrap>
  );
}

function SecureCheckout({ text }: { text: string }) {
  return (
    <p className="mx-auto mt-10 flex max-w-2xl items-center justify-center gap-2 px-5 text-center text-sm text-muted">
      <ShieldIcon className="h-4 w-4 shrink-0 text-sage" />
      {text}
    </p>
  );
}

export const offerMeta: MetaFunction = ({ data }) => {
  const offer = (data as LoaderData | undefined)?.offer;
  if (!offer) return [{ title: "Glow Coach" }];
  return [{ title: `${offer.pageTitle} · Glow Coach` }, { name: "description", content: offer.description }];
};
