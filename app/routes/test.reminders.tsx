/**
 * POST /test/reminders: runs the e-mail queues once, now, at this request's test clock: the daily
 * reminders and the recovery e-mails (ADR 44; one test route for both keeps the client manifest small).
 * Tests only: it exists when the server runs with TEST_CLOCK=1, which production refuses to
 * start with; everywhere else it is a 404, like any unknown page.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { runDueRecovery } from "~/recovery/leads.server";
import { runDueReminders } from "~/reminders/reminders.server";
import { now } from "~/utils/clock.server";
import { env } from "~/utils/env.server";
import { notFound } from "~/utils/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  throw notFound(request);
}

export async function action({ request }: ActionFunctionArgs) {
  if (!env.testClock || env.isProduction) throw notFound(request);
  const at = now();
  return Response.json({ reminders: await runDueReminders(at), recovery: await runDueRecovery(at) });
}
