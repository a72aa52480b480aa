/** /completion: the end of the tutorial (signed in, else /email-instructions). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/guards.server";
import { CheckIcon, ShieldIcon, SparkleIcon } from "~/components/ui/icons";
import { TutorialFooter } from "~/members/components/tutorial-footer";
import { completionView } from "~/members/tutorial.server";
import type { RouteHandle } from "~/root";
import { seo } from "~/utils/seo";

export const handle: RouteHandle = { siteFooter: false };

export const meta: MetaFunction = (args) =>
  seo(args, { title: "Congratulations! · Glow Coach", description: "You completed your routine tutorial.", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "/email-instructions");
  return completionView({ user, cookieHeader: request.headers.get("Cookie") });
}

export default function Completion() {
  const completion = useLoaderData<typeof loader>();
  const { footer } = completion;
  return (
    <>
      <section className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center px-5 py-14 text-center animate-step-in">
        <div className="relative flex h-28 w-28 items-center justify-center rounded-full bg-rose-50 ring-8 ring-rose-100/60" aria-hidden="true">
          <span className="flex h-20 w-20 items-center justify-center rounded-full bg-rose-600 text-white shadow-soft">
            <CheckIcon className="h-10 w-10" />
          </span>
          <SparkleIcon className="absolute -right-1 top-0 h-7 w-7 text-gold" />
        </div>
        <h1 className="mt-8 text-4xl font-semibold sm:text-5xl">{completion.title}</h1>
        <p className="mt-3 text-lg text-muted">{completion.message}</p>
        <p
          className={`mt-6 inline-flex items-center gap-2 rounded-full px-4 py-2 text-sm font-semibold ${completion.allDone ? "bg-[#eef3ee] text-sage" : "bg-rose-50 text-rose-700"}`}
          data-testid="completion-badge"
        >
          {completion.allDone ? <CheckIcon className="h-4 w-4" /> : null} {completion.badge}
        </p>
        <Link to={completion.button.href} className="btn-primary mt-8">
          {completion.button.label}
        </Link>
        <p className="mt-8 flex items-center justify-center gap-2 text-sm text-muted">
          <ShieldIcon className="h-4 w-4 shrink-0 text-sage" /> <span>{completion.trustLine}</span>
        </p>
      </section>
      <TutorialFooter footer={footer} />
    </>
  );
}
