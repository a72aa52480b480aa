import { Link, useLocation } from "@remix-run/react";
import { useEffect } from "react";

/** 404, or with `gone` 410: an offer page or quiz that was published here and has been taken down. */
export function NotFound({ gone = false }: { gone?: boolean }) {
  const location = useLocation();
  useEffect(() => {
    console.warn(`${gone ? 410 : 404}: no page at ${location.pathname}`);
  }, [location.pathname, gone]);
  return (
    <section className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center px-5 py-16 text-center">
      <p className="font-display text-7xl font-semibold text-rose-500">{gone ? 410 : 404}</p>
      <h1 className="mt-4 text-3xl font-semibold">{gone ? "This page has ended" : "Oops! Page not found"}</h1>
      <p className="mt-3 text-muted">
        {gone ? "The offer or quiz that was here is no longer available." : "The page you were looking for doesn't exist or has moved."}
      </p>
      <Link to="/" className="btn-primary mt-8">
        Back to Home
      </Link>
    </section>
  );
}

export function UnexpectedError({ title = "Unexpected Application Error!", message }: { title?: string; message?: string }) {
  return (
    <section className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center px-5 py-16 text-center">
      <h1 className="text-3xl font-semibold">{title}</h1>
      <p className="mt-3 text-muted">{message ?? "Something went wrong on our side. Please try again in a moment."}</p>
      <a href="/" className="btn-primary mt-8">
        Back to Home
      </a>
    </section>
  );
}
