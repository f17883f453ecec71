import { MenuIcon } from "lucide-react";
import { type ReactNode, Suspense, useEffect, useState } from "react";
import { Logo } from "@/components/logo";
import { Button } from "@/components/ui/button";
import { useAfterFirstPaint } from "@/lib/after-first-paint";
import { preloadableLazy } from "@/lib/preloadable-lazy";
import { useLatch } from "@/lib/use-latch";
import { SidebarNav } from "./sidebar-nav";
import { TenantSwitcher } from "./tenant-switcher";
import { UserMenu } from "./user-menu";

// Loaded once the page is on screen, and mounted when first opened.
const MobileNav = preloadableLazy(() => import("./mobile-nav").then((m) => m.MobileNav));

export function AppShell({ children }: { children: ReactNode }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuShown = useLatch(menuOpen);
  const painted = useAfterFirstPaint();
  useEffect(() => {
    if (painted) void MobileNav.preloaded();
  }, [painted]);
  return (
    <div className="min-h-screen bg-background lg:grid lg:grid-cols-[15rem_1fr]">
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-card px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <aside className="sticky top-0 hidden h-screen flex-col gap-6 border-r border-sidebar-border bg-sidebar px-3 py-5 lg:flex">
        <div className="px-2">
          <Logo inverted />
        </div>
        <SidebarNav />
      </aside>
      {menuShown && (
        <Suspense fallback={null}>
          <MobileNav open={menuOpen} onOpenChange={setMenuOpen} />
        </Suspense>
      )}
      <div className="flex min-w-0 flex-col">
        <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b bg-card/95 px-4 backdrop-blur sm:px-6">
          <Button
            variant="ghost"
            size="icon"
            className="lg:hidden"
            aria-label="Open navigation"
            onClick={() => setMenuOpen(true)}
          >
            <MenuIcon />
          </Button>
          <TenantSwitcher />
          <div className="flex-1" />
          <UserMenu />
        </header>
        <main
          id="main-content"
          tabIndex={-1}
          className="mx-auto w-full max-w-7xl flex-1 space-y-6 px-4 py-6 outline-none sm:px-6 lg:px-8"
        >
          {children}
        </main>
      </div>
    </div>
  );
}
