import { json, type SandboxResponse } from "../http/types";
import type { ArmObject, AzureState, PolicyVersion } from "../state/model";
import type { StateStore } from "../state/store";

/**
 * Azure applies a policy assignment some time after the PUT that creates or changes it returns:
 * "It takes around five minutes for the assignment to be applied to the defined scope"
 * (https://learn.microsoft.com/en-us/azure/governance/policy/how-to/get-compliance-data#evaluation-triggers).
 * An exemption is honoured by the same evaluation, so a new one waits as long. "Around" five
 * minutes can be more: the sandbox waits twice that by default, so it is never kinder than Azure.
 * Deletions take effect at once: a removed exemption no longer lets anything through (stricter
 * than Azure); a removed assignment stops denying at once.
 */
export const AZURE_POLICY_PROPAGATION_SECONDS = 600;

/** The delay the sandbox applies, changed at run time through `POST /sandbox/control/propagation`. */
export interface PolicyPropagation {
  seconds: number;
}

export function checkPropagationSeconds(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new Error(
      `The Azure policy propagation delay must be a positive number of seconds (Azure is never instant), got ${seconds}.`,
    );
  }
  return seconds;
}

type Kind = "policyAssignments" | "policyExemptions";

/** What decides enforcement: the properties without their descriptive fields. */
function enforcedContent(object: ArmObject): string {
  const {
    metadata: _m,
    displayName: _d,
    description: _e,
    ...rest
  } = (object.properties ?? {}) as Record<string, unknown>;
  return canonical(rest);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function log(azure: AzureState, kind: Kind): Record<string, PolicyVersion[]> {
  azure.policyVersions ??= { policyAssignments: {}, policyExemptions: {} };
  return azure.policyVersions[kind];
}

/**
 * A PUT stored `object`: a new object, or a change of what it enforces, takes effect after the
 * delay; the version before a change stays in force meanwhile. Rewriting the same content changes
 * nothing.
 */
export function recordPolicyWrite(store: StateStore, kind: Kind, object: ArmObject, seconds: number): void {
  const versions = log(store.state.azure, kind);
  const key = object.id.toLowerCase();
  const history = versions[key] ?? [];
  const latest = history.at(-1);
  if (latest && enforcedContent(latest.object) === enforcedContent(object)) return;
  const at = new Date(store.now().getTime() + seconds * 1_000).toISOString();
  versions[key] = [...history, { at, object: structuredClone(object), applied: false }];
  store.changed();
}

/** A DELETE removed the object: it is no longer enforced, and its versions go. */
export function recordPolicyDelete(store: StateStore, kind: Kind, id: string): void {
  const versions = log(store.state.azure, kind);
  if (versions[id.toLowerCase()]) {
    delete versions[id.toLowerCase()];
    store.changed();
  }
}

/** The version of each stored object Azure enforces now; objects written before versions were kept count as applied. */
function inForce(store: StateStore, kind: Kind): ArmObject[] {
  const azure = store.state.azure;
  const versions = log(azure, kind);
  const now = store.now().getTime();
  return azure[kind].flatMap((object) => {
    const history = versions[object.id.toLowerCase()];
    if (!history) return [object];
    const current = history.filter((v) => Date.parse(v.at) <= now).at(-1);
    return current ? [current.object] : [];
  });
}

export const assignmentsInForce = (store: StateStore) => inForce(store, "policyAssignments");
export const exemptionsInForce = (store: StateStore) => inForce(store, "policyExemptions");

/**
 * Marks versions whose time has come as applied and drops the ones they replace; returns the ids
 * of assignments whose newest version has just taken effect (Azure's evaluation cycle starts then).
 */
export function settlePropagation(store: StateStore): string[] {
  const azure = store.state.azure;
  const now = store.now().getTime();
  const started: string[] = [];
  let changed = false;
  for (const kind of ["policyAssignments", "policyExemptions"] as const) {
    const versions = log(azure, kind);
    const live = new Set(azure[kind].map((o) => o.id.toLowerCase()));
    for (const [key, history] of Object.entries(versions)) {
      if (!live.has(key)) {
        delete versions[key];
        changed = true;
        continue;
      }
      const due = history.filter((v) => Date.parse(v.at) <= now);
      const fresh = due.filter((v) => !v.applied);
      if (fresh.length === 0) continue;
      for (const v of fresh) v.applied = true;
      const newest = due.at(-1)!;
      versions[key] = history.slice(history.indexOf(newest));
      if (kind === "policyAssignments" && newest === history.at(-1)) started.push(newest.object.id);
      changed = true;
    }
  }
  if (changed) store.changed();
  return started;
}

/** `POST /sandbox/control/propagation`: `{}` reads the delay, `{ "seconds": N }` (N > 0) sets it. */
export function propagationControl(
  propagation: PolicyPropagation,
  input: Record<string, unknown>,
): SandboxResponse {
  if (input.seconds !== undefined) {
    const seconds = Number(input.seconds);
    if (!Number.isFinite(seconds) || seconds <= 0) {
      return json(400, {
        error: {
          code: "InvalidPropagation",
          message: "seconds must be a positive number: Azure never applies a policy change instantly.",
        },
      });
    }
    propagation.seconds = seconds;
  }
  return json(200, { seconds: propagation.seconds });
}
