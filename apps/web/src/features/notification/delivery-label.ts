import {
  DeliveryStatus,
  type LastDelivery,
} from "@palisade/api/gen/palisade/notification/v1/notification_pb";

export type DeliveryTone = "success" | "warning" | "destructive" | "secondary";

/** The last delivery of a channel in words: what happened and what to do about it. */
export function deliveryLabel(delivery: LastDelivery | undefined): {
  text: string;
  tone: DeliveryTone;
  hint: string;
} {
  switch (delivery?.status) {
    case DeliveryStatus.SENT:
      return { text: "Delivered", tone: "success", hint: "" };
    case DeliveryStatus.RETRYING:
      return {
        text: "Retrying",
        tone: "warning",
        hint: `The last attempt failed (${delivery.error}); Palisade tries again shortly.`,
      };
    case DeliveryStatus.FAILED:
      return {
        text: "Failed",
        tone: "destructive",
        hint: `Palisade gave up: ${delivery.error}. Check the address or secret, save it again, and the next notification will use it.`,
      };
    default:
      return { text: "Nothing sent yet", tone: "secondary", hint: "" };
  }
}

/** A secret field's placeholder: what is stored, without showing it. */
export function secretPlaceholder(stored: boolean | string, example: string): string {
  if (typeof stored === "string" && stored) return `Saved: ${stored} (type to replace)`;
  if (stored === true) return "Saved (type to replace)";
  return example;
}
