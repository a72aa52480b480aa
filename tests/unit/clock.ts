import fs from "node:fs";
import path from "node:path";

/** Moves the server clock (TEST_CLOCK=1) by `offsetMs` from now. */
export function setClockOffset(offsetMs: number) {
  fs.writeFileSync(path.join(process.env.DATA_DIR!, "test-clock.json"), JSON.stringify({ offsetMs }));
}
