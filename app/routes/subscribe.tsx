/** /subscribe: the skincare paywall, rendered from its offer document (content/offers.ndjson). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { offerRouteAction, offerRouteLoader } from "~/payments/offer-route.server";
import { OfferPage, offerMeta } from "~/payments/components/offer-page";
import { formPageHeaders } from "~/utils/route-headers";

export const loader = (args: LoaderFunctionArgs) => offerRouteLoader(args, "/subscribe");
export const action = (args: ActionFunctionArgs) => offerRouteAction(args, "/subscribe");
export const meta = offerMeta;
export const headers = formPageHeaders;
export default OfferPage;
