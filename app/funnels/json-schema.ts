import { z } from "zod";
import { FunnelDocument } from "../content-model/funnel";

/** The funnel file format as JSON Schema (draft 2020-12), for editors. */
export function funnelJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(FunnelDocument, { io: "input", unrepresentable: "any" }),
    title: "Glow Coach funnel",
    description: "One quiz funnel: its steps, questions, branches and result rules. Generated from app/content-model/funnel.ts by `npm run funnels:schema`.",
  };
}
