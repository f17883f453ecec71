import { describe, expect, it } from "vitest";
import { toggleEventType } from "./event-type-labels";
import type { EventTypeFilter } from "./events-search";

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
