/**
 * /home (no guard). The members' area arrives with the members issue; until then this
 * greets members and points everyone to the quizzes.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { displayName } from "~/auth/display";
import { getUser } from "~/auth/guards.server";
import { ArrowRightIcon } from "~/components/ui/icons";
import { getLandingPage } from "~/content/content.server";

export const meta: MetaFunction = () => [{ title: "Home · Glow Coach" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const [user, page] = await Promise.all([getUser(request), getLandingPage()]);
  return { name: user ? displayName(user.email) : null, quizzes: page?.quizzes ?? [] };
}

export default function Home() {
  const { name, quizzes } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto w-full max-w-3xl px-5 py-10 sm:py-14">
      <h1 className="text-4xl font-semibold">{name ? `Welcome, ${name}` : "Welcome to Glow Coach"}</h1>
      <p className="mt-3 text-lg text-muted">Your daily routine will live here. Start with a quiz to build your plan.</p>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2">
        {quizzes.map((quiz) => (
          <li key={quiz.href}>
            <Link to={quiz.href} className="card group flex h-full flex-col p-6 hover:border-rose-200">
              <span className="font-display text-xl font-semibold">{quiz.title}</span>
              <span className="mt-2 flex-1 text-muted">{quiz.text}</span>
              <span className="mt-4 inline-flex items-center gap-2 font-semibold text-rose-700">
                Take the quiz <ArrowRightIcon />
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
