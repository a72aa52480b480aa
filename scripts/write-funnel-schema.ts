// Writes funnels/funnel.schema.json from the zod schema, so editors validate funnel
// files while typing. A unit test fails when the committed file is out of date.
import fs from "node:fs";
import { funnelJsonSchema } from "../app/funnels/json-schema";

fs.writeFileSync("funnels/funnel.schema.json", `${JSON.stringify(funnelJsonSchema(), null, 2)}\n`);
console.log("Wrote funnels/funnel.schema.json");
