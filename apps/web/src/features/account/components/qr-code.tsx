import { encodeQR } from "qr";
import { useMemo } from "react";

/** A QR code drawn as SVG squares, for an authenticator app's camera. */
export function QrCode({ value, label }: { value: string; label: string }) {
  const cells = useMemo(() => encodeQR(value, "raw", { ecc: "medium" }), [value]);
  const size = cells.length;
  const path = cells.flatMap((row, y) => row.map((on, x) => (on ? `M${x} ${y}h1v1h-1z` : ""))).join("");
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`-2 -2 ${size + 4} ${size + 4}`}
      className="size-48 rounded-md bg-white"
      shapeRendering="crispEdges"
    >
      <path d={path} fill="#000" />
    </svg>
  );
}
