/** The e2e server runs its sandbox cloud on this port (see playwright.config.ts). */
export const sandboxPort = 8181;
export const sandboxURL = `http://127.0.0.1:${sandboxPort}`;
