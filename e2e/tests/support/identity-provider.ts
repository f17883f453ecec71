import { port } from "./admin";

/** The port of the single sign-on test's OpenID Provider; the server trusts its origin (playwright.config). */
export const oidcPort = Number(process.env.E2E_OIDC_PORT ?? port + 8);
export const oidcIssuer = `http://127.0.0.1:${oidcPort}`;
