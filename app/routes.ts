import { flatRoutes } from "@remix-run/fs-routes";
import { route, type RouteConfig } from "@remix-run/route-config";

export default [
  ...(await flatRoutes()),
  // /app is the app entry; it shows the landing page too.
  route("app", "routes/_index.tsx", { id: "routes/app" }),
  // The tutorial, /path1 to /path6: one module, one route per step (the number is in the path).
  ...[1, 2, 3, 4, 5, 6].map((n) => route(`path${n}`, "routes/tutorial-step.tsx", { id: `routes/path${n}` })),
] satisfies RouteConfig;
