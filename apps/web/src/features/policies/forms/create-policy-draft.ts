import type { Scope } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { isRecord } from "@/lib/form-draft";
import type { ParameterInputs } from "./parameter-form";

/** A chosen scope, as the deploy request sends it. */
export type ScopeChoice = Omit<Scope, "$typeName">;

/** The deploy form's input, kept across a sign-in when the session ends while it is filled. */
export interface CreatePolicyDraft {
  slug: string;
  name: string;
  mode: number;
  /** The waiver approval the person picked; null while the tenant's default applies. */
  approval: number | null;
  namespace: string;
  scopes: ScopeChoice[];
  inputs: ParameterInputs;
}

export const createPolicyDraftKey = "/policies/create";

const MAX_SCOPES = 500;

function scopeChoiceOf(value: unknown): ScopeChoice | null {
  if (!isRecord(value)) return null;
  const { provider, externalId, name, type, connectorId } = value;
  if (typeof provider !== "number" || typeof type !== "number") return null;
  if (typeof externalId !== "string" || typeof name !== "string" || typeof connectorId !== "string")
    return null;
  return { provider, externalId, name, type, connectorId };
}

/** The draft this page wrote, or null for anything else. */
export function parseCreatePolicyDraft(value: unknown): CreatePolicyDraft | null {
  if (!isRecord(value)) return null;
  const { slug, name, mode, approval, namespace, scopes, inputs } = value;
  if (typeof slug !== "string" || typeof name !== "string" || typeof namespace !== "string") return null;
  if (typeof mode !== "number" || (approval !== null && typeof approval !== "number")) return null;
  if (!Array.isArray(scopes) || scopes.length > MAX_SCOPES || !isRecord(inputs)) return null;
  const choices = scopes.map(scopeChoiceOf);
  if (choices.some((choice) => choice === null)) return null;
  const fields = Object.entries(inputs);
  if (fields.some(([, input]) => typeof input !== "string" && typeof input !== "boolean")) return null;
  return {
    slug,
    name,
    mode,
    approval,
    namespace,
    scopes: choices as ScopeChoice[],
    inputs: Object.fromEntries(fields) as ParameterInputs,
  };
}
