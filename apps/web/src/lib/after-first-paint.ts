import { useSyncExternalStore } from "react";

/** Longest wait for the first paint; a document that paints nothing (empty, hidden) is not held back longer. */
const FIRST_PAINT_WAIT_MS = 1_000;

let painted = false;
let waiting: Promise<void> | undefined;
/** The components waiting for the first paint (useAfterFirstPaint), told once it is on screen. */
const paintListeners = new Set<() => void>();

/** Whether the browser reports paint timing entries (first-contentful-paint) to an observer. */
function reportsPaints(): boolean {
  return (
    typeof PerformanceObserver === "function" &&
    (PerformanceObserver.supportedEntryTypes ?? []).includes("paint") &&
    typeof document === "object"
  );
}

/**
 * Settles once the document has shown its first content on screen (its first contentful paint),
 * at once when it has already. The browser reports that paint once the frame is on screen, after
 * its rasterisation, so what starts then (the reads below a page's first screen, code used only on
 * demand) no longer competes with the first screen for the processor. A hidden document paints
 * nothing, so it does not wait; nor does a browser that does not report paints, beyond one frame.
 */
export function afterFirstPaint(): Promise<void> {
  waiting ??= new Promise<void>((resolve) => {
    let stopWaiting = () => {};
    const done = () => {
      if (painted) return;
      painted = true;
      stopWaiting();
      resolve();
      for (const listener of paintListeners) listener();
    };
    if (!reportsPaints()) {
      if (typeof requestAnimationFrame === "function") requestAnimationFrame(() => setTimeout(done, 0));
      else setTimeout(done, 0);
      return;
    }
    if (document.visibilityState === "hidden") {
      setTimeout(done, 0);
      return;
    }
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName("first-contentful-paint").length > 0) done();
    });
    observer.observe({ type: "paint", buffered: true });
    document.addEventListener("visibilitychange", done);
    const timer = setTimeout(done, FIRST_PAINT_WAIT_MS);
    stopWaiting = () => {
      observer.disconnect();
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", done);
    };
  });
  return waiting;
}

function subscribeToPaint(listener: () => void): () => void {
  paintListeners.add(listener);
  void afterFirstPaint();
  return () => paintListeners.delete(listener);
}

/**
 * False until the document's first content is on screen (see afterFirstPaint), then true; true
 * from the start once it has been. For work that would otherwise run before that paint. False on
 * the server and while the browser takes a server-rendered page over, as the server rendered it.
 */
export function useAfterFirstPaint(): boolean {
  return useSyncExternalStore(
    subscribeToPaint,
    () => painted,
    () => false,
  );
}
