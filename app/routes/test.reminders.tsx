/**
 * POST /test/reminders: runs the reminder queue once, now, at this request's test clock.
 * Tests only: it exists when the server runs with TEST_CLOCK=1, which production refuses to
 * start with; everywhere else it is a 404, like any unknown page.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { runDueReminders } from "~/reminders/reminders.server";
import { now } from "~/utils/clock.server";
import { env } from "~/utils/env.server";
import { notFound } from "~/utils/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  throw notFound(request);
}

export async function action({ request }: ActionFunctionArgs) {
  if (!env.testClock || env.isProduction) throw notFound(request);
  return Response.json(await runDueReminders(now()));
}
