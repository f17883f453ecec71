// @vitest-environment jsdom

import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { type DeferredMenuProps, deferredMenu, useTriggerFocus } from "./deferred-menu";

function TestMenu({ trigger, defaultOpen, focusTrigger }: DeferredMenuProps) {
  const triggerRef = useTriggerFocus(focusTrigger);
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild ref={triggerRef}>
        {trigger}
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuItem>Settings</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
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
