import type { ReactNode } from "react";
import { DropdownMenu, DropdownMenuContent, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { type DeferredMenuProps, useTriggerFocus } from "./deferred-menu";

/**
 * The dropdown a deferred menu's code draws once it has arrived (see deferredMenu): open at once
 * when its button was pressed before, its trigger taking the focus the stand-in button had.
 */
export function DeferredDropdown({
  trigger,
  defaultOpen,
  focusTrigger,
  align,
  className,
  children,
}: DeferredMenuProps & { align?: "start" | "end"; className?: string; children: ReactNode }) {
  const triggerRef = useTriggerFocus(focusTrigger);
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild ref={triggerRef}>
        {trigger}
      </DropdownMenuTrigger>
      <DropdownMenuContent align={align} className={className}>
        {children}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
