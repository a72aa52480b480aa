/** /admin: admins only (signed-out → /login, members → /home). The spec's page for now. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/auth/guards.server";
import { seo } from "~/utils/seo";

export const meta: MetaFunction = (args) => seo(args, { title: "Admin · Glow Coach", description: "Funnels, revenue, retention and members at a glance.", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  return { email: admin.email };
}

const SECTIONS = [
  { title: "User Management", text: "Find members, roles and subscriptions." },
  { title: "Analytics", text: "Funnel conversion and retention." },
  { title: "Database", text: "Data health and exports." },
  { title: "Settings", text: "Site-wide configuration." },
];

export default function Admin() {
  const { email } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto w-full max-w-4xl px-5 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-semibold">Admin Dashboard</h1>
          <p className="mt-1 text-muted">Welcome, {email}</p>
        </div>
        <div className="flex gap-3">
          <Link to="/home" className="btn-secondary">
            Back to Home
          </Link>
          <Form method="post" action="/logout">
            <button type="submit" className="btn-secondary">
              Logout
            </button>
          </Form>
        </div>
      </div>
      <p className="mt-6 inline-flex rounded-full bg-sage/15 px-4 py-1.5 text-sm font-semibold text-sage">Admin Access Granted</p>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2">
        {SECTIONS.map((section) => (
          <li key={section.title} className="card p-6 opacity-70">
            <h2 className="text-xl font-semibold">{section.title}</h2>
            <p className="mt-1 text-muted">{section.text}</p>
            <button type="button" disabled className="btn-secondary mt-4 cursor-not-allowed">
              Coming Soon
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
