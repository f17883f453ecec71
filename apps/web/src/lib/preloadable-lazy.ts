import { type ComponentType, createElement, lazy } from "react";

/**
 * A lazily loaded component that renders at once when its code has already arrived. React.lazy
 * suspends on a component's first render even when its module is loaded, shows the fallback, and
 * then holds the content back (React reveals suspended content at most every 300 ms); code fetched
 * beforehand with `preload` skips both. A failed load is tried again the next time.
 * `preloaded` starts the same load for a caller that only waits for it to settle: a failure is
 * left to the render, which loads the code again.
 */
export function preloadableLazy<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = (): Promise<ComponentType<P>> => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Preloadable(props: P) {
    return loaded ? createElement(loaded, props) : createElement(Lazy, props);
  }
  const preloaded = (): Promise<void> =>
    preload().then(
      () => {},
      () => {},
    );
  return Object.assign(Preloadable, { preload, preloaded });
}
