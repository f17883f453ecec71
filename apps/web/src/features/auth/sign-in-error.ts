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

/** What a refused one-time code means for the person holding it. */
export function signInCodeErrorMessage(error: AuthErrorLike): string {
  if (error.code === "INVALID_OTP") return "That code is not right. Check the latest e-mail and try again.";
  if (error.code === "TOO_MANY_ATTEMPTS")
    return "Too many wrong tries: this code no longer works. Request a new code.";
  if (error.code === "OTP_EXPIRED") return "This code has expired. Request a new code.";
  if (error.status === 429) return "Too many attempts. Wait a minute and try again.";
  if (error.status === 0 || error.status === undefined)
    return "The server could not be reached. Check your connection and try again.";
  return error.message || "Sign-in failed. Try again.";
}
