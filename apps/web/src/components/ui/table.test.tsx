// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Table, TableBody, TableCell, TableRow } from "./table";

/** jsdom lays nothing out: the frame's widths are set by hand, as a browser would measure them. */
let widths = { scroll: 1258, client: 1086 };
let resized: (() => void) | undefined;

beforeEach(() => {
  vi.stubGlobal(
    "ResizeObserver",
    class {
      constructor(callback: () => void) {
        resized = callback;
      }
      observe() {}
      disconnect() {}
    },
  );
  vi.spyOn(HTMLElement.prototype, "scrollWidth", "get").mockImplementation(() => widths.scroll);
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockImplementation(() => widths.client);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const table = (
  <Table aria-label="Members" stackOnPhone>
    <TableBody>
      <TableRow>
        <TableCell label="MFA">Off</TableCell>
      </TableRow>
    </TableBody>
  </Table>
);

describe("Table", () => {
  it("says so while columns are hidden past the card's edge, and stops once they fit", () => {
    widths = { scroll: 1258, client: 1086 };
    render(table);
    expect(screen.getByTestId("table-scroll-cue").textContent).toContain("scroll sideways");
    widths = { scroll: 1086, client: 1086 };
    act(() => resized?.());
    expect(screen.queryByTestId("table-scroll-cue")).toBeNull();
  });

  it("names each cell's column for the phone layout", () => {
    widths = { scroll: 390, client: 390 };
    render(table);
    expect(screen.getByText("Off").getAttribute("data-label")).toBe("MFA");
    expect(screen.getByRole("table").closest(".table-stack")).not.toBeNull();
  });
});
