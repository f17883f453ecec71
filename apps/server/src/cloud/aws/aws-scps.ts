import {
  AttachPolicyCommand,
  CreatePolicyCommand,
  DeletePolicyCommand,
  DescribePolicyCommand,
  DetachPolicyCommand,
  ListPoliciesCommand,
  ListPoliciesForTargetCommand,
  ListTargetsForPolicyCommand,
  type PolicySummary,
  UpdatePolicyCommand,
} from "@aws-sdk/client-organizations";
import type { AwsPolicyType } from "@palisade/policy-engine/catalogue/definition-schema";
import type { AttachedScp, AwsCloudProvider, ScpRef } from "../cloud-provider";
import { errorCode, isNotFound } from "../errors";
import type { AwsClients } from "./aws-clients";
import { MANAGED_TAG } from "./aws-tags";

export const SCP = "SERVICE_CONTROL_POLICY";
export const RCP = "RESOURCE_CONTROL_POLICY";
/** The Organizations policy types Palisade writes (https://docs.aws.amazon.com/organizations/latest/APIReference/API_CreatePolicy.html, `Type`). */

type ScpOperations = Pick<
  AwsCloudProvider,
  | "applyScp"
  | "removeScp"
  | "putScp"
  | "attachScp"
  | "detachScp"
  | "listScpTargets"
  | "findScpByName"
  | "listTargetScps"
  | "readScpContent"
>;

/**
 * Service and resource control policies by name (the type, SCP unless given, is the `Filter` of
 * the listings and the `Type` of CreatePolicy): each write tolerates what another run of the same deployment,
 * or a change made out of band, may already have done.
 */
export function createScpOperations({ organizations, call, allPages }: AwsClients): ScpOperations {
  function scpRef(summary: PolicySummary | undefined): ScpRef {
    return { id: summary?.Id ?? "", arn: summary?.Arn ?? "", name: summary?.Name ?? "" };
  }

  async function findScpByName(name: string, type: AwsPolicyType = SCP): Promise<ScpRef | undefined> {
    const policies = await allPages(async (NextToken) => {
      const out = await organizations.send(new ListPoliciesCommand({ Filter: type, NextToken }));
      return { items: out.Policies ?? [], next: out.NextToken };
    });
    const found = policies.find((p) => p.Name === name);
    return found ? scpRef(found) : undefined;
  }

  async function putScp(
    compiled: { name: string; description: string; content: string },
    policyId?: string,
    type: AwsPolicyType = SCP,
  ): Promise<ScpRef> {
    const id = policyId ?? (await findScpByName(compiled.name, type))?.id;
    if (id) {
      try {
        const out = await call(() =>
          organizations.send(
            new UpdatePolicyCommand({
              PolicyId: id,
              Name: compiled.name,
              Description: compiled.description,
              Content: compiled.content,
            }),
          ),
        );
        return scpRef(out.Policy?.PolicySummary);
      } catch (error) {
        // Deleted out of band: create it again below.
        if (!isNotFound(error, ["PolicyNotFoundException"])) throw error;
      }
    }
    try {
      const out = await call(() =>
        organizations.send(
          new CreatePolicyCommand({
            Name: compiled.name,
            Description: compiled.description,
            Content: compiled.content,
            Type: type,
            Tags: [{ ...MANAGED_TAG }],
          }),
        ),
      );
      return scpRef(out.Policy?.PolicySummary);
    } catch (error) {
      // Created meanwhile by another run of the same deployment.
      if (errorCode(error) !== "DuplicatePolicyException") throw error;
      const existing = await findScpByName(compiled.name, type);
      if (!existing) throw error;
      return putScp(compiled, existing.id, type);
    }
  }

  async function listScpTargets(policyId: string): Promise<string[]> {
    const targets = await allPages(async (NextToken) => {
      const out = await organizations.send(
        new ListTargetsForPolicyCommand({ PolicyId: policyId, NextToken }),
      );
      return { items: out.Targets ?? [], next: out.NextToken };
    });
    return targets.map((t) => t.TargetId ?? "").filter(Boolean);
  }

  async function attachScp(policyId: string, targetId: string): Promise<void> {
    try {
      await call(() =>
        organizations.send(new AttachPolicyCommand({ PolicyId: policyId, TargetId: targetId })),
      );
    } catch (error) {
      if (errorCode(error) !== "DuplicatePolicyAttachmentException") throw error;
    }
  }

  async function detachScp(policyId: string, targetId: string): Promise<void> {
    try {
      await call(() =>
        organizations.send(new DetachPolicyCommand({ PolicyId: policyId, TargetId: targetId })),
      );
    } catch (error) {
      if (errorCode(error) !== "PolicyNotAttachedException") throw error;
    }
  }

  async function removeScp(policyId: string): Promise<void> {
    try {
      for (const target of await listScpTargets(policyId)) await detachScp(policyId, target);
      await call(() => organizations.send(new DeletePolicyCommand({ PolicyId: policyId })));
    } catch (error) {
      if (!isNotFound(error, ["PolicyNotFoundException"])) throw error;
    }
  }

  async function listTargetScps(targetId: string, type: AwsPolicyType = SCP): Promise<AttachedScp[]> {
    const policies = await allPages(async (NextToken) => {
      const out = await call(() =>
        organizations.send(new ListPoliciesForTargetCommand({ TargetId: targetId, Filter: type, NextToken })),
      );
      return { items: out.Policies ?? [], next: out.NextToken };
    });
    return policies.map((p) => ({ ...scpRef(p), awsManaged: p.AwsManaged ?? false }));
  }

  async function readScpContent(policyId: string): Promise<string> {
    const out = await call(() => organizations.send(new DescribePolicyCommand({ PolicyId: policyId })));
    return out.Policy?.Content ?? "";
  }

  return {
    listTargetScps,
    readScpContent,
    async applyScp(compiled, policyId, type) {
      const ref = await putScp(compiled, policyId, type);
      const wanted = new Set(compiled.attach ? compiled.targets : []);
      const current = new Set(await listScpTargets(ref.id));
      // Attach first: a target that would lose its last SCP refuses the detach.
      for (const target of wanted) if (!current.has(target)) await attachScp(ref.id, target);
      for (const target of current) if (!wanted.has(target)) await detachScp(ref.id, target);
      return ref;
    },
    removeScp,
    putScp,
    attachScp,
    detachScp,
    listScpTargets,
    findScpByName,
  };
}
