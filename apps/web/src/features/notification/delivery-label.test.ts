import { create } from "@bufbuild/protobuf";
import {
  DeliveryStatus,
  LastDeliverySchema,
} from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import { describe, expect, it } from "vitest";
import { deliveryLabel, secretPlaceholder } from "./delivery-label";

describe("deliveryLabel", () => {
  it.each([
    [undefined, "Nothing sent yet", "secondary"],
    [DeliveryStatus.SENT, "Delivered", "success"],
    [DeliveryStatus.RETRYING, "Retrying", "warning"],
    [DeliveryStatus.FAILED, "Failed", "destructive"],
  ] as const)("status %s reads %s", (status, text, tone) => {
    const delivery =
      status === undefined
        ? undefined
        : create(LastDeliverySchema, { status, error: "Slack answered 404: no_service" });
    expect(deliveryLabel(delivery)).toMatchObject({ text, tone });
  });

  it("says why a failed delivery failed and what to do", () => {
    const label = deliveryLabel(
      create(LastDeliverySchema, { status: DeliveryStatus.FAILED, error: "Teams answered 400" }),
    );
    expect(label.hint).toContain("Teams answered 400");
    expect(label.hint).toContain("save it again");
  });
});

describe("secretPlaceholder", () => {
  it("shows a stored webhook by its hint and a stored secret as saved", () => {
    expect(secretPlaceholder("https://hooks.slack.com/services/T0…", "x")).toContain("hooks.slack.com");
    expect(secretPlaceholder(true, "x")).toBe("Saved (type to replace)");
    expect(secretPlaceholder(false, "xoxb-…")).toBe("xoxb-…");
  });
});
