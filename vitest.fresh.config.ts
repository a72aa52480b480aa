import { unitTestConfig } from "./vitest.config";

// The second pass of the unit suite: the files that need fresh modules each (vitest.config.ts).
export default unitTestConfig("fresh");
