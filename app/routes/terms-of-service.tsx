/** /terms-of-service: open to everyone, copy from the "legalPage" content document. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LegalPageView } from "~/components/legal-page";
import { legalPageView } from "~/pages/legal.server";
import { seo } from "~/utils/seo";

export async function loader({ request }: LoaderFunctionArgs) {
  return legalPageView(request, "terms-of-service");
}

export const meta: MetaFunction<typeof loader> = (args) =>
  seo(args, {
    title: `${args.data?.page.title ?? "Legal"} · Glow Coach`,
    description: args.data?.page.description ?? "Glow Coach legal information.",
    type: "article",
  });

export default function TermsOfService() {
  const { page, backHref } = useLoaderData<typeof loader>();
  return <LegalPageView page={page} backHref={backHref} />;
}
