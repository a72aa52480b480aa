/** Any other URL: the not-found screen (rendered by the root error boundary). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { notFound } from "~/utils/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  throw notFound(request);
}

export async function action({ request }: LoaderFunctionArgs) {
  throw notFound(request);
}

export default function NotFoundRoute() {
  return null;
}
