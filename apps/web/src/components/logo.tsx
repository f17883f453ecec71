import { cn } from "@/lib/utils";

export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn("size-8", className)} aria-hidden="true">
      <rect width="32" height="32" rx="7" className="fill-primary" />
      <path d="M8 9h3v15H8zM14.5 7h3v17h-3zM21 9h3v15h-3z" fill="#fff" />
      <path d="M6 19h20v2.5H6z" fill="#93c5fd" />
    </svg>
  );
}

export function Logo({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <span className={cn("inline-flex items-center gap-2.5", className)}>
      <LogoMark />
      <span
        className={cn("text-lg font-semibold tracking-tight", inverted ? "text-white" : "text-foreground")}
      >
        Palisade
      </span>
    </span>
  );
}
