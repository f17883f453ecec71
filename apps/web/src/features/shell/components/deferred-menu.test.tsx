// @vitest-environment jsdom

import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { DropdownMenuItem } from "@/components/ui/dropdown-menu";
import { DeferredDropdown } from "./deferred-dropdown";
import { type DeferredMenuProps, deferredMenu } from "./deferred-menu";

function TestMenu(props: DeferredMenuProps) {
  return (
    <DeferredDropdown {...props}>
      <DropdownMenuItem>Settings</DropdownMenuItem>
    </DeferredDropdown>
  );
}

/** A deferred menu whose code arrives when the test lets it. */
function heldMenu() {
  let release = () => {};
  const arrived = new Promise<void>((resolve) => {
    release = resolve;
  });
  const Menu = deferredMenu(async () => {
    await arrived;
    return TestMenu;
  });
  return { Menu, release };
}

describe("deferredMenu", () => {
  afterEach(cleanup);

  it("draws the button as a closed menu button before the menu's code arrives", () => {
    const { Menu } = heldMenu();
    render(<Menu trigger={<button type="button">Options</button>} />);
    const button = screen.getByRole("button", { name: "Options" });
    expect(button.getAttribute("aria-haspopup")).toBe("menu");
    expect(button.getAttribute("aria-expanded")).toBe("false");
  });

  it("opens the menu once its code arrives when the button was pressed before", async () => {
    const { Menu, release } = heldMenu();
    render(<Menu trigger={<button type="button">Options</button>} />);
    fireEvent.keyDown(screen.getByRole("button", { name: "Options" }), { key: "Enter" });
    expect(screen.queryByRole("menuitem", { name: "Settings" })).toBeNull();
    release();
    expect(await screen.findByRole("menuitem", { name: "Settings" })).toBeTruthy();
  });

  it("gives the focus to the menu's button when the button it replaces had it", async () => {
    const { Menu, release } = heldMenu();
    render(<Menu trigger={<button type="button">Options</button>} />);
    screen.getByRole("button", { name: "Options" }).focus();
    release();
    await waitFor(() => expect(screen.getByRole("button", { name: "Options" }).id).not.toBe(""));
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Options" }));
    expect(screen.queryByRole("menu")).toBeNull();
  });
});
