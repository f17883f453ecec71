/** What Better Auth's client reports for a refused call, plus the wait a 429 asks for. */
export interface AuthFailure {
  status?: number;
  code?: string;
  message?: string;
}

/**
 * Options for a Better Auth client call that remember the Retry-After of a 429 answer, which the
 * client's error object leaves out.
 */
export function retryAfterCapture() {
  let seconds: number | undefined;
  return {
    fetchOptions: {
      onError(context: { response: Response }) {
        const header =
          context.response.headers.get("retry-after") ?? context.response.headers.get("x-retry-after");
        const value = Number(header);
        seconds = Number.isFinite(value) && value > 0 ? Math.ceil(value) : undefined;
      },
    },
    seconds: () => seconds,
  };
}

export function tooManyRequestsText(seconds: number | undefined): string {
  return seconds
    ? `Too many requests. Try again in ${seconds} s.`
    : "Too many requests. Wait a minute and try again.";
}

/** The text of a refused account call: the wait of a 429, the server's words, or a generic line. */
export function authFailureText(error: AuthFailure, retryAfterSeconds: number | undefined): string {
  if (error.status === 429) return tooManyRequestsText(retryAfterSeconds);
  if (error.status === 0 || error.status === undefined)
    return "The server could not be reached. Check your connection and try again.";
  return error.message || "Something went wrong. Try again.";
}
