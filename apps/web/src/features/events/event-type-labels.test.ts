import { describe, expect, it } from "vitest";
import type { EventTypeFilter } from "@/routes/_authenticated/events/-search";
import { toggleEventType } from "./event-type-labels";

describe("toggleEventType", () => {
  it.each<[EventTypeFilter[], EventTypeFilter, ReturnType<typeof toggleEventType>]>([
    [[], "alert", "alert"],
    [["alert"], "alert", undefined],
    [["alert"], "waived", ["alert", "waived"]],
    [["alert", "waived"], "alert", "waived"],
    [["alert", "waived"], "resolved", ["alert", "waived", "resolved"]],
  ])("%j toggling %s -> %j", (selected, type, expected) => {
    expect(toggleEventType(selected, type)).toEqual(expected);
  });
});
