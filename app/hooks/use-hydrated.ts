import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False during server rendering and while hydrating; true from then on, and from the first
 * render of anything mounted after hydration. (A state set in an effect would leave a step that
 * an answer put on screen "not hydrated" until React's next task: a keypress in that gap posted
 * the form the browser's way, to the step the router was still at.)
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
