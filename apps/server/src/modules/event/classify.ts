import type { AuditRecord } from "../../cloud/cloud-provider";
import { classifyCloudTrail } from "./classify-aws";
import { classifyActivity } from "./classify-azure";
import type { ClassifyContext } from "./classify-context";
import type { NewPolicyEvent } from "./policy-event";

/** Every event one audit record gives rise to (none when no Palisade policy is involved). */
export function classifyAudit(record: AuditRecord, ctx: ClassifyContext): NewPolicyEvent[] {
  return ctx.provider === "aws" ? classifyCloudTrail(record, ctx) : classifyActivity(record, ctx);
}
