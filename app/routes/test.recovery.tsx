/**
 * POST /test/recovery: runs the recovery e-mail queue once, now, at this request's test clock.
 * Tests only, like /test/reminders: it exists when the server runs with TEST_CLOCK=1, which
 * production refuses to start with; everywhere else it is a 404.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { runDueRecovery } from "~/recovery/leads.server";
import { now } from "~/utils/clock.server";
import { env } from "~/utils/env.server";
import { notFound } from "~/utils/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  throw notFound(request);
}

export async function action({ request }: ActionFunctionArgs) {
  if (!env.testClock || env.isProduction) throw notFound(request);
  return Response.json(await runDueRecovery(now()));
}
