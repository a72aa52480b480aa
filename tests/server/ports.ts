/**
 * Ports for the servers the server tests start: 50 above the browser suite's (E2E_PORT, whose
 * specs use up to +49), so that both suites can run at once on one machine without meeting.
 * Each file has its own offset: files run in parallel.
 */
const BASE = Number(process.env.SERVER_TEST_PORT ?? Number(process.env.E2E_PORT ?? 3210) + 50);

export const SERVER_PORTS = {
  crashSafety: BASE,
  fuzz: BASE + 1,
  /** Five: logs, readiness, the two fatal kinds, pruning; backup and its restore share the sixth. */
  operations: BASE + 2,
  requestPaths: BASE + 8,
  startup: BASE + 9,
  workers: BASE + 10,
  headers: BASE + 11,
  requestGate: BASE + 12,
  requestGateSmtp: BASE + 13,
  signIn: BASE + 14,
  signInSmtp: BASE + 15,
  signInOAuth: BASE + 16,
} as const;
