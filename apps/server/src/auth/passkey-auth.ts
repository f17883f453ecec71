import { passkey } from "@better-auth/passkey";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import type { Database } from "../db/database";
import type { Logger } from "../logger";
import { recordSignIn } from "./sign-in-recording";

/**
 * Passkeys (WebAuthn): a signed-in user registers, names and deletes them on /account, and
 * anyone signs in with one from the sign-in page (a discoverable credential: no address
 * typed first). The relying party is the host of PUBLIC_URL.
 */
export interface PasskeyAuthOptions {
  db: Database;
  publicUrl: string;
  /** The origins the server answers on; those of the relying party's host may use passkeys. */
  trustedOrigins: string[];
  logger: Logger;
}

export const MAX_PASSKEY_NAME_LENGTH = 60;

const IP_ADDRESS = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

/**
 * The relying party id and the origins allowed to use it. Browsers refuse an IP address as a
 * relying party, so an instance addressed by one (a loopback install) offers passkeys on
 * `localhost` at the same port.
 */
export function passkeyRelyingParty(publicUrl: string, trustedOrigins: string[]) {
  const url = new URL(publicUrl);
  const rpID = IP_ADDRESS.test(url.hostname) ? "localhost" : url.hostname;
  const candidates = [
    publicUrl,
    ...trustedOrigins,
    `${url.protocol}//localhost${url.port ? `:${url.port}` : ""}`,
  ];
  const origins = [...new Set(candidates.map((o) => new URL(o).origin))].filter((o) => {
    const host = new URL(o).hostname;
    return host === rpID || host.endsWith(`.${rpID}`);
  });
  return { rpID, origins };
}

function badRequest(message: string, code: string) {
  return new APIError("BAD_REQUEST", { message, code });
}

/** Bounded names, limits per client address and the sign-in history for passkeys. */
function passkeyRules(options: PasskeyAuthOptions): BetterAuthPlugin {
  const isPasskeyPath = (path: string | undefined) => path?.startsWith("/passkey/") ?? false;
  return {
    id: "palisade-passkey-rules",
    rateLimit: [
      // Starting a ceremony is cheap for a client and writes a challenge.
      { pathMatcher: (path) => path.startsWith("/passkey/generate-"), window: 60, max: 20 },
      { pathMatcher: (path) => path === "/passkey/verify-authentication", window: 60, max: 10 },
      { pathMatcher: (path) => path === "/passkey/verify-registration", window: 60, max: 10 },
    ],
    hooks: {
      before: [
        {
          matcher: (ctx) => isPasskeyPath(ctx.path),
          handler: createAuthMiddleware(async (ctx) => {
            const name = (ctx.body as { name?: unknown } | undefined)?.name ?? ctx.query?.name;
            if (name === undefined) return;
            if (typeof name !== "string") throw badRequest('"name" must be a string', "INVALID_NAME");
            if (name.length > MAX_PASSKEY_NAME_LENGTH)
              throw badRequest(
                `A passkey's name must not exceed ${MAX_PASSKEY_NAME_LENGTH} characters`,
                "INVALID_NAME",
              );
            if (ctx.path === "/passkey/update-passkey" && !name.trim())
              throw badRequest('"name" must not be empty', "INVALID_NAME");
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => ctx.path === "/passkey/verify-authentication",
          handler: createAuthMiddleware(async (ctx) => recordSignIn(options, ctx, "passkey")),
        },
      ],
    },
  };
}

/** The Better Auth plugins of passkeys, spread into the configuration's plugins. */
export function passkeyPlugins(options: PasskeyAuthOptions) {
  const { rpID, origins } = passkeyRelyingParty(options.publicUrl, options.trustedOrigins);
  // The rules come first: Better Auth takes the first plugin's limit that matches a path.
  return [
    passkeyRules(options),
    passkey({
      rpID,
      rpName: "Palisade",
      origin: origins,
      // Discoverable credentials, so the sign-in page needs no address to offer a passkey.
      authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    }),
  ] as const;
}
