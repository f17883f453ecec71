import type { ReactNode } from "react";
import { cn } from "@/lib/utils";

export type EmptyStateImage = "list" | "table" | "search";

function ListImage() {
  return (
    <svg viewBox="0 0 120 96" className="h-24 w-auto" aria-hidden="true">
      <rect
        x="14"
        y="10"
        width="92"
        height="76"
        rx="10"
        className="fill-muted stroke-border"
        strokeWidth="2"
      />
      {[26, 44, 62].map((y) => (
        <g key={y}>
          <rect x="26" y={y} width="10" height="10" rx="3" className="fill-primary/25" />
          <rect x="42" y={y + 1} width="48" height="3.5" rx="1.75" className="fill-border" />
          <rect x="42" y={y + 6.5} width="30" height="3" rx="1.5" className="fill-border/70" />
        </g>
      ))}
      <circle cx="96" cy="76" r="14" className="fill-card stroke-primary/60" strokeWidth="2" />
      <path d="M96 70v12M90 76h12" className="stroke-primary" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}

function TableImage() {
  return (
    <svg viewBox="0 0 120 96" className="h-24 w-auto" aria-hidden="true">
      <rect
        x="10"
        y="14"
        width="100"
        height="68"
        rx="8"
        className="fill-muted stroke-border"
        strokeWidth="2"
      />
      <rect x="10" y="14" width="100" height="14" rx="8" className="fill-primary/20" />
      <path d="M10 42h100M10 56h100M10 70h100M44 28v54M78 28v54" className="stroke-border" strokeWidth="2" />
      <path
        d="M60 4l14 5v9c0 8-6 13-14 16-8-3-14-8-14-16V9z"
        className="fill-card stroke-primary/70"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <path
        d="M54 18l4 4 8-8"
        className="stroke-primary"
        strokeWidth="2.5"
        fill="none"
        strokeLinecap="round"
      />
    </svg>
  );
}

function SearchImage() {
  return (
    <svg viewBox="0 0 120 96" className="h-24 w-auto" aria-hidden="true">
      <rect
        x="16"
        y="16"
        width="70"
        height="64"
        rx="8"
        className="fill-muted stroke-border"
        strokeWidth="2"
      />
      <path d="M28 34h40M28 46h30M28 58h36" className="stroke-border" strokeWidth="3" strokeLinecap="round" />
      <circle cx="82" cy="58" r="16" className="fill-card stroke-primary/70" strokeWidth="3" />
      <path d="M94 70l12 12" className="stroke-primary/70" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}

const images: Record<EmptyStateImage, () => ReactNode> = {
  list: ListImage,
  table: TableImage,
  search: SearchImage,
};

export function EmptyState({
  image = "list",
  title,
  description,
  action,
  className,
}: {
  image?: EmptyStateImage;
  title: string;
  description: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  const Image = images[image];
  return (
    <div
      className={cn(
        "flex flex-col items-center justify-center gap-3 rounded-xl border border-dashed bg-card/60 px-6 py-12 text-center",
        className,
      )}
    >
      <Image />
      <h3 className="text-base font-semibold">{title}</h3>
      <p className="max-w-md text-sm text-muted-foreground">{description}</p>
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}
