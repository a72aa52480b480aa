/** /email-instructions: how to use the sign-in e-mail (where the tutorial sends signed-out visitors). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CheckEmailSteps } from "~/components/check-email-steps";
import { AuthCard } from "~/components/ui/form";
import { getSiteSettings } from "~/content/content.server";
import { seo } from "~/utils/seo";

export const meta: MetaFunction = (args) =>
  seo(args, { title: "Check your email · Glow Coach", description: "We sent you a link to access your personalised plan." });

export async function loader(_: LoaderFunctionArgs) {
  const { supportEmail } = await getSiteSettings();
  return { supportEmail };
}

export default function EmailInstructions() {
  const { supportEmail } = useLoaderData<typeof loader>();
  return (
    <AuthCard>
      <h1 className="text-center text-3xl font-semibold">Check Your Email!</h1>
      <p className="mt-2 text-center text-muted">We've sent you a magic link to access your plan. It works once and for 15 minutes.</p>
      <CheckEmailSteps />
      <div className="mt-8 grid gap-3">
        {/* A plain link to this page: a reload that picks up the session once the link was used. */}
        <a href="/email-instructions" className="btn-primary w-full">
          I've Clicked the Link
        </a>
        <Link to="/" className="btn-secondary w-full">
          Back to Home
        </Link>
      </div>
      <p className="mt-6 text-center text-sm text-muted">
        Didn't receive the email? Write to us at{" "}
        <a href={`mailto:${supportEmail}`} className="font-semibold text-rose-700 hover:underline">
          {supportEmail}
        </a>{" "}
        and we'll help you in.
      </p>
    </AuthCard>
  );
}
