import { defineCliConfig } from "sanity/cli";

export default defineCliConfig({
  api: {
    projectId: process.env.SANITY_STUDIO_PROJECT_ID || "glowcoach",
    dataset: process.env.SANITY_STUDIO_DATASET || "production",
  },
  // The bundle is built and hosted by us; never ask the hosted service during a build.
  deployment: { autoUpdates: false },
});
