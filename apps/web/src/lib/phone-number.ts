/** How a one-time code reaches a phone. */
export type PhoneChannel = "sms" | "voice" | "whatsapp";

export const PHONE_CHANNELS: { value: PhoneChannel; label: string }[] = [
  { value: "sms", label: "Text message (SMS)" },
  { value: "voice", label: "Voice call" },
  { value: "whatsapp", label: "WhatsApp" },
];

/** The spec's rule: `+` and 4 to 15 digits; null when valid, else the message to show. */
export function phoneNumberError(value: string): string | null {
  return /^\+\d{4,15}$/.test(value) ? null : `"${value}" is not a valid phone number`;
}

/** What a refused phone-code call means for the person holding the phone. */
export function phoneCodeFailureText(
  error: { status?: number; code?: string; message?: string },
  retryAfterSeconds?: number,
): string {
  if (error.code === "INVALID_OTP" || error.code === "OTP_NOT_FOUND")
    return "That code is not right. Check the latest message and try again.";
  if (error.code === "OTP_EXPIRED") return "This code has expired. Ask for a new code.";
  if (error.code === "TOO_MANY_ATTEMPTS")
    return "Too many wrong tries: this code no longer works. Ask for a new code.";
  if (error.code === "PHONE_NUMBER_EXIST") return "Another account already uses this number.";
  if (error.status === 429)
    return retryAfterSeconds
      ? `Too many requests. Try again in ${retryAfterSeconds} s.`
      : "Too many requests. Wait a minute and try again.";
  if (error.status === 0 || error.status === undefined)
    return "The server could not be reached. Check your connection and try again.";
  return error.message || "Something went wrong. Try again.";
}
