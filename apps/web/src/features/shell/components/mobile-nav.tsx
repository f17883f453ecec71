import { Logo } from "@/components/logo";
import { Dialog, DialogContent, DialogTitle } from "@/components/ui/dialog";
import { SidebarNav } from "./sidebar-nav";

/** The navigation below the large-screen breakpoint: a panel opened from the header's menu button. */
export function MobileNav({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="top-0 left-0 h-full max-w-64 translate-x-0 translate-y-0 content-start gap-6 rounded-none border-sidebar-border bg-sidebar px-3 py-5 text-sidebar-foreground">
        <DialogTitle className="sr-only">Navigation</DialogTitle>
        <div className="px-2">
          <Logo inverted />
        </div>
        <SidebarNav onNavigate={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
