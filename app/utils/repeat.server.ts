import { logger } from "./logger.server";

/**
 * Runs `task` now and then every `everyMs`, in the background of every app instance: a run that
 * is still going when the next is due is not started twice, a failed run is logged and tried again
 * at the next, and the timer never keeps the process alive. Returns the function that stops it.
 */
export function repeatEvery<T>(name: string, task: () => Promise<T>, everyMs: number, report: (result: T) => void = () => {}): () => void {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= task()
      .then(report)
      .catch((error) => logger.error({ err: error }, `[${name}] failed; trying again at the next run`))
      .finally(() => {
        running = null;
      });
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
