/** /dev/mailbox: the e-mails the dev mailbox saved instead of sending, newest first. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { displayTime, listMessages } from "~/email/dev-mailbox.server";
import { visibleMailboxDir } from "~/email/mailer.server";
import { notFound } from "~/utils/http.server";
import { seo } from "~/utils/seo";

export async function loader({ request }: LoaderFunctionArgs) {
  const dir = visibleMailboxDir();
  if (!dir) throw notFound(request);
  const messages = (await listMessages(dir)).map(({ id, to, subject, createdAt }) => ({ id, to, subject, createdAt, time: displayTime(createdAt) }));
  // The messages hold sign-in links: keep them out of every cache.
  return { messages };
}

export const meta: MetaFunction = (args) => seo(args, { title: "Mailbox · Glow Coach", description: "E-mails the app sent on this machine.", noindex: true });

export default function Mailbox() {
  const { messages } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto w-full max-w-3xl px-5 pb-20 pt-8 sm:pt-12">
      <p role="note" className="rounded-2xl border border-rose-200 bg-rose-50 px-4 py-3 text-sm font-medium text-rose-700">
        Development mailbox: messages are saved here instead of being sent.
      </p>
      <h1 className="mt-8 text-3xl font-semibold sm:text-4xl">Mailbox</h1>
      {messages.length ? (
        <>
          <p className="mt-2 text-muted">Newest first.</p>
          <ul className="card mt-6 divide-y divide-line overflow-hidden">
            {messages.map((message) => (
              <li key={message.id}>
                <Link
                  to={`/dev/mailbox/${message.id}`}
                  className="grid gap-1 px-5 py-4 transition-colors hover:bg-rose-50 sm:grid-cols-[10rem_minmax(0,1fr)] sm:gap-5"
                >
                  <time dateTime={message.createdAt} className="text-sm tabular-nums text-muted sm:pt-0.5">
                    {message.time}
                  </time>
                  <span className="min-w-0">
                    <span className="block truncate font-semibold text-ink">{message.subject}</span>
                    <span className="block truncate text-sm text-muted">To {message.to}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="card mt-6 px-5 py-8 text-center text-muted">No messages yet. Ask for a sign-in link and it will appear here.</p>
      )}
    </div>
  );
}
