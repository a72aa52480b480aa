/** POST /auth/google: start Google sign-in (in the popup with JavaScript, full page without). */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { startGoogleSignIn } from "~/auth/google.server";
import { env } from "~/utils/env.server";
import { fieldsOf, readFormEntries } from "~/utils/form.server";
import { notFound } from "~/utils/http.server";

export async function loader() {
  return redirect("/login");
}

export async function action({ request }: ActionFunctionArgs) {
  if (!env.google) throw notFound(request);
  const form = await readFormEntries(request);
  if (!form.ok) return redirect("/login", 303);
  return startGoogleSignIn(request, fieldsOf(form.entries));
}
