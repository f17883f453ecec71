import { ConnectError } from "@connectrpc/connect";

/** The error a call that must fail answered with; the test fails if it succeeded. */
export async function errorOf(call: Promise<unknown>): Promise<ConnectError> {
  try {
    await call;
  } catch (error) {
    return ConnectError.from(error);
  }
  throw new Error("the call succeeded");
}
