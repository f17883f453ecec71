/**
 * What Palisade recommends, derived from what it knows of a tenant: the frameworks it follows,
 * its connected hierarchies, the clouds' audit streams, drift and waivers. Pure: the job reads
 * the facts, these rules turn them into findings, and the job stores them by their keys.
 */

import { ACTIVITY_RULES, SCOPE_RULES } from "./recommendation-rule-tables";
import {
  ACTIVITY_WINDOW_DAYS,
  type Finding,
  type FindingScope,
  type FrameworkFact,
  type LiveDeployment,
  MAX_SCOPES,
  OFTEN_WAIVED_THRESHOLD,
  type Provider,
  type RuleInput,
  type ScopeNode,
  TITLE_MAX,
  WAIVER_WINDOW_DAYS,
} from "./recommendation-types";

export * from "./recommendation-types";

const clamp = (n: number) => Math.max(0, Math.min(100, Math.round(n)));
const cut = (text: string, max = TITLE_MAX) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const codeList = (items: string[]) => items.map((i) => `\`${i}\``).join(", ");

/** The tenant's hierarchy with ancestor lookups, and where policies are live. */
export class Coverage {
  private readonly byId = new Map<string, ScopeNode>();
  private readonly live = new Map<string, Set<string>>();

  constructor(nodes: ScopeNode[], deployments: LiveDeployment[]) {
    for (const node of nodes) this.byId.set(node.externalId, node);
    for (const d of deployments) {
      const set = this.live.get(d.policySlug) ?? new Set<string>();
      set.add(d.scopeExternalId);
      this.live.set(d.policySlug, set);
    }
  }

  node(id: string): ScopeNode | undefined {
    return this.byId.get(id) ?? this.byId.get(`/subscriptions/${id}`);
  }

  /** The node and its ancestors, nearest first. */
  lineage(id: string): ScopeNode[] {
    const out: ScopeNode[] = [];
    const seen = new Set<string>();
    let node = this.node(id);
    while (node && !seen.has(node.externalId)) {
      out.push(node);
      seen.add(node.externalId);
      node = node.parentExternalId ? this.byId.get(node.parentExternalId) : undefined;
    }
    return out;
  }

  /** Whether a live deployment of the policy applies to the scope (on it or an ancestor). */
  covers(slug: string, scopeId: string): boolean {
    const live = this.live.get(slug);
    if (!live) return false;
    return this.lineage(scopeId).some((n) => live.has(n.externalId));
  }

  isLive(slug: string): boolean {
    return (this.live.get(slug)?.size ?? 0) > 0;
  }

  /** Accounts and subscriptions at or under the scope. */
  leavesUnder(id: string, nodes: ScopeNode[]): number {
    return nodes.filter(
      (n) =>
        (n.type === "AWS_ACCOUNT" || n.type === "AZURE_SUBSCRIPTION") &&
        this.lineage(n.externalId).some((a) => a.externalId === id),
    ).length;
  }
}

const scopeOf = (n: ScopeNode): FindingScope => ({ externalId: n.externalId, name: n.name, type: n.type });
const sortScopes = (scopes: FindingScope[]) =>
  scopes.sort((a, b) => a.name.localeCompare(b.name) || a.externalId.localeCompare(b.externalId));

function policyNames(input: RuleInput, slugs: string[]): string {
  return slugs.map((s) => `**${input.policies.get(s)?.name ?? s}** (\`${s}\`)`).join(" and ");
}

/** Risky calls seen in the audit stream on scopes no deployed guardrail protects. */
export function activityFindings(input: RuleInput, coverage: Coverage): Finding[] {
  const findings: Finding[] = [];
  for (const rule of ACTIVITY_RULES) {
    const slugs = rule.policySlugs.filter((s) => input.policies.get(s)?.provider === rule.provider);
    if (slugs.length === 0) continue;
    const hits = input.activity.filter(
      (r) =>
        r.provider === rule.provider &&
        rule.matches(r) &&
        coverage.node(r.scopeId) !== undefined &&
        slugs.some((s) => !coverage.covers(s, r.scopeId)),
    );
    if (hits.length === 0) continue;
    const scopes = new Map<string, ScopeNode>();
    for (const hit of hits) {
      const node = coverage.node(hit.scopeId);
      if (node) scopes.set(node.externalId, node);
    }
    const resources = new Set(hits.map((h) => h.resource || h.scopeId));
    const principals = [...new Set(hits.map((h) => h.principal).filter(Boolean))].sort();
    const last = hits.reduce((a, b) => (a.time > b.time ? a : b));
    const actions = [...new Set(hits.map((h) => h.action))].sort();
    const calls = hits.reduce((n, h) => n + (h.count ?? 1), 0);
    const scopeList = sortScopes([...scopes.values()].map(scopeOf)).slice(0, MAX_SCOPES);
    const description = [
      `**What happened:** in the last ${ACTIVITY_WINDOW_DAYS} days, ${plural(calls, "call")} ${rule.happened} (${codeList(actions)}), in ${scopeList.map((s) => s.name).join(", ")}.`,
      "",
      `- Resources: ${resources.size}`,
      `- By: ${codeList(principals.slice(0, 5))}${principals.length > 5 ? ` and ${principals.length - 5} more` : ""}`,
      `- Most recent: ${last.time.toISOString().replace("T", " ").slice(0, 16)} UTC`,
      "",
      `**Why it matters:** ${rule.why}`,
      "",
      `**Suggested:** deploy ${policyNames(input, slugs)} on these scopes in ALERT first, look at what it reports, then switch to PREVENT.`,
    ].join("\n");
    findings.push({
      key: `observed_activity:${rule.id}`,
      kind: "observed_activity",
      title: cut(rule.title),
      description,
      policySlugs: slugs,
      provider: rule.provider,
      scopes: scopeList,
      mode: "ALERT",
      score: clamp(rule.severity + Math.min(10, Math.log2(calls + 1) * 2)),
      affectedResourcesCount: resources.size,
    });
  }
  return findings;
}

/** Production OUs, accounts, management groups and subscriptions without a baseline guardrail. */
export function scopeFindings(input: RuleInput, coverage: Coverage): Finding[] {
  const findings: Finding[] = [];
  for (const rule of SCOPE_RULES) {
    const policy = input.policies.get(rule.policySlug);
    if (!policy || policy.provider !== rule.provider) continue;
    const unguarded = input.nodes.filter(
      (n) =>
        n.provider === rule.provider && rule.appliesTo(n) && !coverage.covers(rule.policySlug, n.externalId),
    );
    // The highest unguarded production scope stands for the ones under it.
    const ids = new Set(unguarded.map((n) => n.externalId));
    for (const node of unguarded) {
      if (
        coverage
          .lineage(node.externalId)
          .slice(1)
          .some((a) => ids.has(a.externalId))
      )
        continue;
      const leaves = coverage.leavesUnder(node.externalId, input.nodes);
      findings.push({
        key: `unguarded_scope:${rule.id}:${node.externalId}`,
        kind: "unguarded_scope",
        title: cut(`${policy.name} on ${node.name}`),
        description: [
          `**What Palisade sees:** ${node.name} looks like a production scope (${plural(leaves, node.provider === "aws" ? "account" : "subscription")} at or under it), and no deployed policy ${policy.name} applies to it.`,
          "",
          `**Why it matters:** ${rule.why}`,
          "",
          `**Suggested:** deploy ${policyNames(input, [rule.policySlug])} on ${node.name} in ALERT first, then PREVENT.`,
        ].join("\n"),
        policySlugs: [rule.policySlug],
        provider: rule.provider,
        scopes: [scopeOf(node)],
        mode: "ALERT",
        score: clamp(rule.severity + Math.min(10, leaves)),
        affectedResourcesCount: leaves,
      });
    }
  }
  return findings;
}

/**
 * Clauses that no deployed policy covers, of the frameworks the tenant follows (those with at
 * least one clause covered by a live deployment), one finding per clause and cloud.
 */
export function frameworkFindings(input: RuleInput, coverage: Coverage): Finding[] {
  const findings: Finding[] = [];
  const connected = new Set(input.nodes.map((n) => n.provider));
  for (const framework of input.frameworks) {
    const covered = (clause: FrameworkFact["clauses"][number]) =>
      clause.definitionSlugs.some((s) => coverage.isLive(s));
    if (!framework.clauses.some(covered)) continue;
    const deployedScopes = new Map<Provider, Map<string, ScopeNode>>();
    for (const d of input.deployments) {
      const node = coverage.node(d.scopeExternalId);
      const inFramework = framework.clauses.some((c) => c.definitionSlugs.includes(d.policySlug));
      if (!node || !inFramework) continue;
      const map = deployedScopes.get(node.provider) ?? new Map<string, ScopeNode>();
      map.set(node.externalId, node);
      deployedScopes.set(node.provider, map);
    }
    for (const clause of framework.clauses) {
      if (covered(clause)) continue;
      for (const provider of ["aws", "azure"] as const) {
        if (!connected.has(provider)) continue;
        const slugs = clause.definitionSlugs
          .filter((s) => input.policies.get(s)?.provider === provider)
          .sort();
        if (slugs.length === 0) continue;
        const scopes = [...(deployedScopes.get(provider)?.values() ?? [])];
        const fallback = input.nodes.filter((n) => n.provider === provider && !n.parentExternalId);
        const chosen = sortScopes((scopes.length > 0 ? scopes : fallback).map(scopeOf)).slice(0, MAX_SCOPES);
        const total = framework.clauses.length;
        const coveredCount = framework.clauses.filter(covered).length;
        findings.push({
          key: `framework_gap:${framework.slug}:${clause.id}:${provider}`,
          kind: "framework_gap",
          title: cut(`${framework.name} ${clause.id}: ${clause.title}`),
          description: [
            `**Framework gap:** clause ${clause.id} of ${framework.name}, *${clause.title}*, is not covered by any deployed policy (${coveredCount} of ${total} clauses are).`,
            "",
            `**Suggested:** deploy ${policyNames(input, slugs)}${scopes.length > 0 ? " where the framework's other policies already run" : ""}, in ALERT first.`,
          ].join("\n"),
          policySlugs: slugs,
          provider,
          scopes: chosen,
          mode: "ALERT",
          score: clamp(35 + Math.round((coveredCount / Math.max(1, total)) * 20)),
          affectedResourcesCount: chosen.reduce(
            (n, s) => n + coverage.leavesUnder(s.externalId, input.nodes),
            0,
          ),
        });
      }
    }
  }
  return findings;
}

/** Policies deployed in ALERT whose resources drift: enforcing them stops new drift. */
export function driftFindings(input: RuleInput, coverage: Coverage): Finding[] {
  const findings: Finding[] = [];
  for (const fact of input.drift) {
    if (fact.mode !== "ALERT" || fact.resources <= 0) continue;
    const policy = input.policies.get(fact.policySlug);
    const node = coverage.node(fact.scopeExternalId);
    if (!policy || !node) continue;
    findings.push({
      key: `drift:${fact.policySlug}:${node.externalId}`,
      kind: "drift",
      title: cut(`Enforce ${policy.name} on ${node.name}`),
      description: [
        `**Drift:** ${plural(fact.resources, "resource")} on ${node.name} do not comply with ${policy.name}, deployed there in ALERT.`,
        "",
        `**Suggested:** fix the drifting resources, then deploy ${policyNames(input, [fact.policySlug])} in PREVENT so no new ones appear.`,
      ].join("\n"),
      policySlugs: [fact.policySlug],
      provider: policy.provider,
      scopes: [scopeOf(node)],
      mode: "PREVENT",
      score: clamp(50 + Math.min(30, fact.resources * 3)),
      affectedResourcesCount: fact.resources,
    });
  }
  return findings;
}

/** Policies waived so often on a scope that their scope or mode deserves a review. */
export function waiverFindings(input: RuleInput, coverage: Coverage): Finding[] {
  const findings: Finding[] = [];
  for (const fact of input.waivers) {
    if (fact.count < OFTEN_WAIVED_THRESHOLD) continue;
    const policy = input.policies.get(fact.policySlug);
    const node = coverage.node(fact.scopeExternalId);
    if (!policy || !node) continue;
    findings.push({
      key: `often_waived:${fact.policySlug}:${node.externalId}`,
      kind: "often_waived",
      title: cut(`Review ${policy.name} on ${node.name}: often waived`),
      description: [
        `**Often waived:** ${plural(fact.count, "waiver")} of ${policy.name} on ${node.name} in the last ${WAIVER_WINDOW_DAYS} days.`,
        "",
        "A guardrail waived this often either blocks legitimate work or sits on the wrong scope. Consider running it in ALERT on this scope while the team adjusts, or excluding the scopes that need the action.",
        "",
        `**Suggested:** deploy ${policyNames(input, [fact.policySlug])} on ${node.name} in ALERT and narrow the enforcing deployment.`,
      ].join("\n"),
      policySlugs: [fact.policySlug],
      provider: policy.provider,
      scopes: [scopeOf(node)],
      mode: "ALERT",
      score: clamp(30 + Math.min(40, fact.count * 4)),
      affectedResourcesCount: 0,
    });
  }
  return findings;
}

export const RULE_SETS = [activityFindings, scopeFindings, frameworkFindings, driftFindings, waiverFindings];

/** Every finding for the tenant, by descending score, then key; keys are unique. */
export function computeFindings(input: RuleInput): Finding[] {
  const coverage = new Coverage(input.nodes, input.deployments);
  const byKey = new Map<string, Finding>();
  for (const rules of RULE_SETS)
    for (const finding of rules(input, coverage)) byKey.set(finding.key, finding);
  return [...byKey.values()].sort((a, b) => b.score - a.score || a.key.localeCompare(b.key));
}
