export const requestTimeoutMs = 30_000;
export const requestTimeoutMessage = "Request timeout";
export const unexpectedErrorMessage = "An unexpected error occurred";
