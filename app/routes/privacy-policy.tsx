/** /privacy-policy: open to everyone, copy from the "legalPage" content document. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LegalPageView } from "~/components/legal-page";
import { LEGAL_PAGE_MISSING, legalPageView } from "~/pages/legal.server";
import { seo } from "~/utils/seo";

export async function loader({ request }: LoaderFunctionArgs) {
  const view = await legalPageView(request, "privacy-policy");
  if (!view) throw new Response(LEGAL_PAGE_MISSING, { status: 503 });
  return view;
}

export const meta: MetaFunction<typeof loader> = (args) =>
  seo(args, {
    title: `${args.data?.page.title ?? "Legal"} · Glow Coach`,
    description: args.data?.page.description ?? "Glow Coach legal information.",
    type: "article",
  });

export default function PrivacyPolicy() {
  const { page, backHref } = useLoaderData<typeof loader>();
  return <LegalPageView page={page} backHref={backHref} />;
}
