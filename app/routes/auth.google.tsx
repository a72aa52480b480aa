/** POST /auth/google: start Google sign-in (in the popup with JavaScript, full page without). */
import { data, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { startGoogleSignIn } from "~/auth/google.server";
import { env } from "~/utils/env.server";
import { parseForm } from "~/utils/form.server";
import { notFound } from "~/utils/http.server";
import { isGo } from "~/utils/outcome";
import { goTo } from "~/utils/responses.server";

export async function loader() {
  return redirect("/login");
}

/** 'Continue with Google': "1" when the page opened a popup for it, and where to go after. */
const GoogleForm = z.object({ popup: z.string().optional(), redirectTo: z.string().optional() });

export async function action({ request }: ActionFunctionArgs) {
  if (!env.google) throw notFound(request);
  const { submission, status } = await parseForm(request, GoogleForm);
  if (submission.status !== "success") return data(submission.reply(), { status });
  const outcome = await startGoogleSignIn({
    popup: submission.value.popup === "1",
    redirectTo: submission.value.redirectTo,
    cookieHeader: request.headers.get("Cookie"),
  });
  if (isGo(outcome)) return goTo(outcome);
  const headers = new Headers();
  for (const cookie of outcome.cookies) headers.append("Set-Cookie", cookie);
  return redirect(outcome.google, { status: 303, headers });
}
