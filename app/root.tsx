import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { SiteFooter, SiteHeader } from "~/components/site-chrome";
import { NotFound, UnexpectedError } from "~/components/error-screens";
import { Toaster } from "~/components/ui/toaster";
import { initials } from "~/auth/display";
import { currentSession } from "~/auth/session.server";
import { getSiteSettings } from "~/content/content.server";
import { takeToast } from "~/utils/toast.server";
import { TIME_ZONE_SCRIPT } from "~/members/time-zone";
import { useNonce } from "~/security/nonce";
import { Stylesheet } from "~/styles/stylesheet";
import { MetaPixelEvents, MetaPixelScript } from "~/analytics/meta-pixel";
import { pixelBootstrap } from "~/analytics/pixel";
import { adConsentIn } from "~/analytics/consent.server";
import { consentBannerHtml } from "~/components/consent-banner.server";
import { env } from "~/utils/env.server";
import { copyrightYear } from "~/utils/copyright-year.server";
import { seo } from "~/utils/seo";
import { movesWithinFunnel } from "~/funnels/navigation";

export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export const meta: MetaFunction = (args) => seo(args, { title: "Glow Coach", description: "Personal skincare and makeup coaching." });

export async function loader({ request }: LoaderFunctionArgs) {
  const [settings, session, { toast, clear }] = await Promise.all([getSiteSettings(), currentSession(request), takeToast(request)]);
  const headers = new Headers();
  if (clear) headers.append("Set-Cookie", clear);
  if (session?.setCookie) headers.append("Set-Cookie", session.setCookie);
  // A purchase session (address not verified yet) shows the menu without the account's pages.
  const user = session
    ? {
        email: session.user.email,
        initials: initials(session.user.email),
        role: session.kind === "full" ? session.user.role : "user",
        verified: session.kind === "full",
      }
    : null;
  // Meta's pixel only with the visitor's consent; asked (the banner) where it is configured (ADR 32).
  const url = new URL(request.url);
  const consent = adConsentIn(request.headers.get("Cookie"));
  const pixelId = consent === "granted" ? env.metaPixelId : null;
  const footerLinks = settings.footerLinks.flatMap((link) => (link.href ? [{ label: link.label, href: link.href }] : []));
  if (consent !== "off") footerLinks.push({ label: "Cookie settings", href: `/cookie-settings?returnTo=${encodeURIComponent(url.pathname + url.search)}` });
  return data(
    // publicUrl: canonical URLs in every page's meta. metaPixelId is public by nature (it is in Meta's script URL).
    {
      brandName: settings.brandName,
      supportEmail: settings.supportEmail,
      footerLinks,
      user,
      toast,
      copyrightYear: copyrightYear(),
      publicUrl: env.publicUrl,
      metaPixelId: pixelId,
      pixelBootstrap: pixelId ? pixelBootstrap(pixelId) : null,
      // Server-rendered markup: the banner adds no JavaScript to any page (consent-banner.server.tsx).
      consentBanner: consent === "ask" && url.pathname !== "/cookie-settings" ? consentBannerHtml(url.pathname + url.search) : null,
    },
    { headers },
  );
}

/** Moving within a funnel changes nothing the root shows: its data is not asked for again (app/funnels/navigation.ts). */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formAction, defaultShouldRevalidate }) =>
  movesWithinFunnel({ currentUrl, nextUrl, formAction }) ? false : defaultShouldRevalidate;

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

/** A route module may export `handle = { siteFooter: false }` when it draws its own footer. */
export type RouteHandle = { siteFooter?: boolean };

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  const siteFooter = useMatches().every((match) => (match.handle as RouteHandle | undefined)?.siteFooter !== false);
  // React takes over after the page has loaded (ADR 11); browser tests wait for this mark
  // before checking what only the client does (focus moves, popups, pending states).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#fbf6f1" />
        <Meta />
        <Stylesheet nonce={nonce} />
        <Links />
        {/* The browser's time zone, so "today" is the member's own day (see app/members/time-zone.server.ts). */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: TIME_ZONE_SCRIPT }} />
        <MetaPixelScript bootstrap={data?.pixelBootstrap ?? null} nonce={nonce} />
      </head>
      <body className="flex min-h-dvh flex-col">
        <SiteHeader brandName={data?.brandName ?? "Glow Coach"} user={data?.user ?? null} />
        <Toaster initial={data?.toast ?? null} />
        <main id="main" className="flex flex-1 flex-col">
          {children}
        </main>
        {siteFooter ? (
          <SiteFooter
            brandName={data?.brandName ?? "Glow Coach"}
            year={data?.copyrightYear ?? null}
            supportEmail={data?.supportEmail}
            links={data?.footerLinks ?? []}
          />
        ) : null}
        {data?.consentBanner ? <div dangerouslySetInnerHTML={{ __html: data.consentBanner }} /> : null}
        <MetaPixelEvents pixelId={data?.metaPixelId ?? null} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && (error.status === 404 || error.status === 410)) return <NotFound gone={error.status === 410} />;
  if (isRouteErrorResponse(error) && error.status >= 400 && error.status < 500) {
    return <UnexpectedError title="We couldn't do that" message={typeof error.data === "string" ? error.data : error.statusText} />;
  }
  return <UnexpectedError />;
}
