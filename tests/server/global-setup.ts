// The server tests run the production build. It is built here, once, when missing or older than
// its sources (as `npm start` would), so that no file's server rebuilds it under the others'.
import { buildIfStale } from "../../scripts/build-if-stale.mjs";

export default function setup() {
  buildIfStale();
}
