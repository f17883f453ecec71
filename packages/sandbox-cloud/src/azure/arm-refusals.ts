import type { SandboxRequest } from "../http/types";

/** ARM requests the sandbox answers with an error instead of serving them, as a locked scope would. */
export interface Refusal {
  method: string;
  /** Case-insensitive substring of the request path. */
  pathContains: string;
  left: number;
  status: number;
  code: string;
  message: string;
}

export function takeRefusal(refusals: Refusal[], req: SandboxRequest): Refusal | undefined {
  const path = req.path.toLowerCase();
  const found = refusals.find(
    (r) => r.left > 0 && r.method === req.method.toUpperCase() && path.includes(r.pathContains),
  );
  if (found) found.left -= 1;
  return found;
}
