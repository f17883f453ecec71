import { EMAIL_PATHS } from "./account-auth";

/**
 * How soon an answer that takes an address may leave, counted from when its handling began.
 * Whether the address has an account changes the work before the answer (a row written for a
 * new account, a password verified rather than hashed, a sign-in history row), by a few ms on an
 * idle machine and more under load; answers held to a floor above that work leave at the same
 * time either way, so their timing tells nothing about accounts. Paths that hash a password get
 * a higher floor, as the hash alone takes ~100 ms. Work that takes longer than its floor is
 * answered when done; such work is already the same for both (both hash). Measured by
 * `npm run -w @palisade/bench address-timing`.
 */
export const ADDRESS_ANSWER_FLOOR_MS = { codesAndLinks: 200, passwords: 400 } as const;

/** The identity layer's paths (under /api/auth) that hash the password they are sent. */
const PASSWORD_PATHS = new Set(["/sign-in/email", "/sign-up/email"]);

/** The floor of an identity-layer path (under /api/auth), or 0 for one that takes no address. */
export function addressAnswerFloorMs(path: string): number {
  if (PASSWORD_PATHS.has(path)) return ADDRESS_ANSWER_FLOOR_MS.passwords;
  return EMAIL_PATHS.has(path) ? ADDRESS_ANSWER_FLOOR_MS.codesAndLinks : 0;
}

/** Runs `work` and answers what it answers, or throws what it throws, no sooner than `floorMs`. */
export async function answerNoSoonerThan<T>(floorMs: number, work: () => Promise<T>): Promise<T> {
  const startedAt = performance.now();
  try {
    return await work();
  } finally {
    const wait = startedAt + floorMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
