export interface AuthErrorLike {
  status?: number;
  code?: string;
  message?: string;
}

export function signInErrorMessage(error: AuthErrorLike): string {
  if (error.status === 401 || error.code === "INVALID_EMAIL_OR_PASSWORD") return "Invalid email or password";
  if (error.status === 429) return "Too many sign-in attempts. Wait a minute and try again.";
  if (error.status === 403 && error.code === "EMAIL_NOT_VERIFIED")
    return "Verify your e-mail address before signing in.";
  if (error.status === 0 || error.status === undefined)
    return "The server could not be reached. Check your connection and try again.";
  return error.message || "Sign-in failed. Try again.";
}
