/**
 * Code that only some pages of a route need (the offer page in the content route), in a
 * chunk of its own: loaded on first need, then used synchronously. The server loads it in
 * the loader, before rendering, so the page is rendered whole (also without JavaScript); the
 * browser loads it while hydrating (React keeps the server's HTML until it is there) or,
 * on a client-side navigation, in the route's clientLoader, before the page changes.
 */
export function preloadable<T>(load: () => Promise<T>) {
  let loaded: T | undefined;
  let pending: Promise<T> | undefined;
  return {
    load: (): Promise<T> => (pending ??= load().then((module) => (loaded = module))),
    /** The module once loaded, else undefined. */
    get: (): T | undefined => loaded,
  };
}
