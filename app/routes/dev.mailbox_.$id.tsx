/**
 * /dev/mailbox/:id: one saved e-mail. (The "_" keeps it from nesting inside the list page.)
 * The HTML part is shown in a sandboxed frame, so its markup and styles cannot touch the app.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { displayTime, readMessage } from "~/email/dev-mailbox.server";
import { visibleMailboxDir } from "~/email/mailer.server";
import { notFound } from "~/utils/http.server";
import { seo } from "~/utils/seo";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const dir = visibleMailboxDir();
  // readMessage refuses any id that is not exactly a mailbox id, so a crafted one is a 404.
  const message = dir ? await readMessage(dir, params.id ?? "") : null;
  if (!message) throw notFound(request);
  // The message holds a sign-in link: keep it out of every cache.
  return { message: { ...message, time: displayTime(message.createdAt) } };
}

export const meta: MetaFunction<typeof loader> = (args) =>
  seo(args, {
    title: `${args.data?.message.subject ?? "Message"} · Mailbox · Glow Coach`,
    description: "An e-mail the app sent on this machine.",
    noindex: true,
  });

export default function MailboxMessage() {
  const { message } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto w-full max-w-3xl px-5 pb-20 pt-8 sm:pt-12">
      <p role="note" className="rounded-2xl border border-rose-200 bg-rose-50 px-4 py-3 text-sm font-medium text-rose-700">
        Development mailbox: messages are saved here instead of being sent.
      </p>
      <Link to="/dev/mailbox" className="mt-6 inline-block text-sm font-semibold text-rose-700 underline-offset-4 hover:underline">
        ← All messages
      </Link>
      <h1 className="mt-3 text-3xl font-semibold sm:text-4xl">{message.subject}</h1>
      <dl className="mt-4 grid grid-cols-[4rem_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted">From</dt>
        <dd className="break-words">{message.from}</dd>
        <dt className="text-muted">To</dt>
        <dd className="break-words">{message.to}</dd>
        <dt className="text-muted">Date</dt>
        <dd>
          <time dateTime={message.createdAt}>{message.time}</time>
        </dd>
      </dl>

      {message.link ? (
        <section className="card mt-6 p-5" aria-labelledby="link-heading">
          <h2 id="link-heading" className="text-lg font-semibold">
            Link in this e-mail
          </h2>
          <a href={message.link} className="mt-2 block break-all font-medium text-rose-700 underline-offset-2 hover:underline">
            {message.link}
          </a>
        </section>
      ) : null}

      <section className="mt-8" aria-labelledby="html-heading">
        <h2 id="html-heading" className="text-xl font-semibold">
          HTML
        </h2>
        <iframe
          sandbox=""
          srcDoc={message.html}
          title={`HTML part of “${message.subject}”`}
          referrerPolicy="no-referrer"
          className="mt-3 h-[56rem] w-full sm:h-[44rem] rounded-card border border-line bg-white"
        />
      </section>

      <section className="mt-8" aria-labelledby="text-heading">
        <h2 id="text-heading" className="text-xl font-semibold">
          Plain text
        </h2>
        <pre className="card mt-3 overflow-x-auto whitespace-pre-wrap break-words p-5 font-mono text-sm leading-relaxed">{message.text}</pre>
      </section>
    </div>
  );
}
