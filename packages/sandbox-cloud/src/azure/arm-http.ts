import { randomUUID } from "node:crypto";
import { json, type SandboxRequest, type SandboxResponse } from "../http/types";
import type { ArmObject } from "../state/model";
import type { StateStore } from "../state/store";
import type { TokenClaims } from "./token";

/** Azure service limits the sandbox enforces (lowered through `POST /sandbox/control/limits`). */
export interface ArmLimits {
  /** Policy exemptions at one scope; Azure allows 1,000. */
  policyExemptionsPerScope: number;
  /**
   * Items per page of every list (see `paging.ts`). Azure's sizes vary by list; 100 keeps a
   * tenant of a few hundred objects on several pages.
   */
  listPageSize: number;
}

export const AZURE_LIMITS: ArmLimits = { policyExemptionsPerScope: 1_000, listPageSize: 100 };

export interface ArmContext {
  store: StateStore;
  claims: TokenClaims;
  baseUrl: string;
  limits: ArmLimits;
}

export function armError(
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): SandboxResponse {
  return json(status, { error: { code, message, ...extra } }, { "x-ms-request-id": randomUUID() });
}

export const armOk = (body: unknown, status = 200) => json(status, body, { "x-ms-request-id": randomUUID() });

export function armBody(req: SandboxRequest): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(req.body.toString() || "{}") as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function props(o: ArmObject): Record<string, unknown> {
  return (o.properties ?? {}) as Record<string, unknown>;
}
