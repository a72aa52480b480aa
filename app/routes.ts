import { flatRoutes } from "@remix-run/fs-routes";
import { route, type RouteConfig } from "@remix-run/route-config";

export default [
  ...(await flatRoutes()),
  // /app is the app entry; it shows the landing page too.
  route("app", "routes/_index.tsx", { id: "routes/app" }),
] satisfies RouteConfig;
