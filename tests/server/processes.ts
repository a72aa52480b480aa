import type { ChildProcess } from "node:child_process";

const running = new Set<ChildProcess>();

/** A server a test started, noted so that `killLeftovers` stops it if the test ends without doing so. */
export function tracked<T extends ChildProcess>(child: T): T {
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

/**
 * For `afterEach`: a test that failed or timed out never reaches its own clean-up, and its
 * server would keep running after the suite, holding the port the next run needs.
 */
export function killLeftovers(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}
