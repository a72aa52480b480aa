/**
 * Every port the browser suite listens on, as a range above E2E_PORT (default 3210): one table,
 * so that no two servers share a port (tests/unit/e2e-ports.test.ts). Two specs that did, run
 * at once by two workers, each found the other's server answering its start check. The server
 * suite starts 50 above (tests/server/ports.ts).
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);

export const E2E_PORT_RANGES = {
  /** The app; with E2E_INSTANCES=n, the round-robin proxy and its instances on the ports above it. */
  app: { offset: 0, count: 10 },
  /** The run's SMTP and OpenID servers (tests/e2e/global-setup.ts). */
  smtp: { offset: 15, count: 1 },
  oauth: { offset: 16, count: 1 },
  /** pixel.spec.ts's app with a Meta pixel. */
  pixel: { offset: 17, count: 1 },
  /** sanity.spec.ts: one app reading the fake Content Lake per project. */
  sanity: { offset: 30, count: 4 },
  /** instances.spec.ts: the pair. */
  instances: { offset: 40, count: 2 },
  /** experiments.spec.ts's app (it shared +40 with the pair until issue 28's round 4). */
  experiments: { offset: 42, count: 1 },
} as const;

/** The `index`th port of a range. */
export function e2ePort(name: keyof typeof E2E_PORT_RANGES, index = 0): number {
  const { offset, count } = E2E_PORT_RANGES[name];
  if (!Number.isInteger(index) || index < 0 || index >= count) throw new Error(`${name} has ${count} port(s), not a port ${index}`);
  return E2E_PORT + offset + index;
}
