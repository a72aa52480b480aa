/**
 * Every page's meta tags from one helper: title, description, Open Graph, Twitter card and
 * a canonical URL on PUBLIC_URL (the root loader passes it down). Use in each route's meta:
 *   export const meta: MetaFunction<typeof loader> = (args) => seo(args, { title, description });
 */
import type { MetaDescriptor } from "@remix-run/node";

export type SeoPage = {
  title: string;
  description: string;
  /** Pages that should not appear in search results (members' area, admin). */
  noindex?: boolean;
  /** Open Graph type; "website" by default. */
  type?: "website" | "article";
};

type MetaArgs = { location: { pathname: string }; matches: ReadonlyArray<{ id: string; data?: unknown } | undefined> };

export const SITE_NAME = "Glow Coach";
/** Used by tests and the root loader when no PUBLIC_URL reached the page (an error screen). */
const FALLBACK_ORIGIN = "http://localhost";

function publicUrlOf(matches: MetaArgs["matches"]): string {
  const root = matches.find((m) => m?.id === "root")?.data as { publicUrl?: string } | undefined;
  return root?.publicUrl ?? FALLBACK_ORIGIN;
}

/** The canonical address of a path: no query string, no trailing slash (but "/"). */
export function canonicalUrl(publicUrl: string, pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : "/";
  return `${publicUrl.replace(/\/$/, "")}${path}`;
}

export function seo(args: MetaArgs, page: SeoPage): MetaDescriptor[] {
  const url = canonicalUrl(publicUrlOf(args.matches), args.location.pathname);
  const image = `${publicUrlOf(args.matches).replace(/\/$/, "")}/images/og-card.png`;
  return [
    { title: page.title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: page.title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: page.title },
    { name: "twitter:description", content: page.description },
    ...(page.noindex ? [{ name: "robots", content: "noindex" }] : []),
  ];
}
