/** What the error code of a failed confirmation link means, and how to get a new link. */
export function confirmationFailureText(code: string): string {
  const newLink = "Sign in with your e-mail address and password to be sent a new link.";
  if (code === "TOKEN_EXPIRED") return `The link was valid for 24 hours and has expired. ${newLink}`;
  if (code === "INVALID_USER")
    return `The link belongs to another account than the one signed in on this browser. Sign out, then open the link again.`;
  return `The link is incomplete, was altered, or its account no longer exists. ${newLink}`;
}
