import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False while a page is rendered on the server and while the browser takes that page over
 * (hydration), true from then on: for what the server's HTML cannot carry, such as a style
 * attribute, which the Content-Security-Policy refuses in a page's HTML.
 */
export function useIsClient(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
