import { port } from "./admin";

/** The e2e server runs its sandbox cloud on this port (see playwright.config.ts). */
export const sandboxPort = Number(process.env.E2E_SANDBOX_PORT ?? port + 1);
export const sandboxURL = `http://127.0.0.1:${sandboxPort}`;
