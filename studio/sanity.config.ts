import { defineConfig } from "sanity";
import { structureTool } from "sanity/structure";
import { schemaTypes, singletons } from "./schemaTypes";
import { defaultDocumentNode, structure } from "./structure";
import { pickerInput } from "./inputs/pickers";
import { previewAction } from "./preview/preview-pane";

const singletonTypes = new Set<string>(singletons.map((s) => s.type.name));

export default defineConfig({
  name: "glow-coach",
  title: "Glow Coach",
  // SANITY_STUDIO_* variables are read at build time (sanity build / sanity dev).
  projectId: process.env.SANITY_STUDIO_PROJECT_ID || "glowcoach",
  dataset: process.env.SANITY_STUDIO_DATASET || "production",
  plugins: [structureTool({ structure, defaultDocumentNode })],
  schema: {
    types: schemaTypes,
    // Singletons are opened from the menu only: no "new site settings" in the create menu.
    templates: (templates) => templates.filter(({ schemaType }) => !singletonTypes.has(schemaType)),
  },
  // Fields that name a step, an answer, a plan or a page get a list to pick from (studio/inputs/pickers.tsx).
  form: { components: { input: pickerInput } },
  document: {
    actions: (actions, { schemaType }) => {
      const own = singletonTypes.has(schemaType)
        ? actions.filter(({ action }) => action && ["publish", "discardChanges", "restore"].includes(action))
        : actions;
      return [...own, previewAction];
    },
  },
});
