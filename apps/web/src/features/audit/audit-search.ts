import * as z from "zod/mini";

const text = (max: number) => z.catch(z.optional(z.string().check(z.maxLength(max))), undefined);

/** The Audit log page's filters, kept in its address so a filtered view can be shared. */
export const auditSearchSchema = z.object({
  actor: text(128),
  action: text(200),
  targetType: text(64),
  target: text(256),
  /** Local date-times as a datetime-local input gives them ("2026-11-28T09:00"). */
  from: text(32),
  to: text(32),
  page: z.catch(z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1_000_000))), undefined),
});

export type AuditSearch = z.infer<typeof auditSearchSchema>;
