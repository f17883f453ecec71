const minute = 60_000;

/** Router timings of spec section 9. */
export const routerDefaults = {
  defaultPreload: "intent",
  defaultPreloadDelay: 50,
  defaultPendingMs: 1000,
  defaultPendingMinMs: 500,
  defaultPreloadStaleTime: 30_000,
  defaultGcTime: 5 * minute,
  scrollRestoration: true,
} as const;
