import type { ConnectionCheck } from "./cloud-provider";
import { errorMessage, isUnreachable } from "./errors";

/** Runs one step of a connection test; a failure is explained, not thrown. */
export async function runCheck(
  name: string,
  run: () => Promise<string>,
  explain: (error: unknown) => string,
): Promise<ConnectionCheck> {
  try {
    return { name, ok: true, message: await run() };
  } catch (error) {
    return { name, ok: false, message: explain(error) };
  }
}

/** The explanation for an endpoint the server cannot reach, or undefined for any other error. */
export function unreachableMessage(where: string, error: unknown): string | undefined {
  return isUnreachable(error)
    ? `Cannot reach ${where}: ${errorMessage(error)}. Check the network path from the Palisade server.`
    : undefined;
}
