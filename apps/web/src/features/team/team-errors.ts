import { connectCodeOf, errorText } from "@/lib/error-text";

/** Connect's code names on the wire, as `ConnectError.code` holds them by number. */
const PERMISSION_DENIED = 7;
const NOT_FOUND = 5;

/**
 * The server's message (it already says what to do, e.g. for the last administrator), with the
 * next step added where the message alone leaves the person stuck.
 */
export function teamErrorText(error: unknown): string {
  const text = errorText(error);
  switch (connectCodeOf(error)) {
    case PERMISSION_DENIED:
      return `${text} Ask an administrator of this tenant to make the change or to give you a role that may.`;
    case NOT_FOUND:
      return `${text} Someone may have changed it meanwhile: reload the page to see the current list.`;
    default:
      return text;
  }
}
