import { defineConfig } from "sanity";
import { structureTool } from "sanity/structure";
import { schemaTypes, singletons } from "./schemaTypes";
import { structure } from "./structure";
import { previewAction } from "./preview-action";

const singletonTypes = new Set<string>(singletons.map((s) => s.type.name));

export default defineConfig({
  name: "glow-coach",
  title: "Glow Coach",
  // SANITY_STUDIO_* variables are read at build time (sanity build / sanity dev).
  projectId: process.env.SANITY_STUDIO_PROJECT_ID || "glowcoach",
  dataset: process.env.SANITY_STUDIO_DATASET || "production",
  plugins: [structureTool({ structure })],
  schema: {
    types: schemaTypes,
    // Singletons are opened from the menu only: no "new site settings" in the create menu.
    templates: (templates) => templates.filter(({ schemaType }) => !singletonTypes.has(schemaType)),
  },
  document: {
    actions: (actions, { schemaType }) => {
      const own = singletonTypes.has(schemaType)
        ? actions.filter(({ action }) => action && ["publish", "discardChanges", "restore"].includes(action))
        : actions;
      return [...own, previewAction];
    },
  },
});
