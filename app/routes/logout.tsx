/** POST /logout: deletes the session, then goes to /. A GET changes nothing. */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { destroySession } from "~/auth/session.server";

export async function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  return redirect("/", { status: 303, headers: { "Set-Cookie": await destroySession(request) } });
}
