import {
  DescribePolicyCommand,
  ListPoliciesForTargetCommand,
  ListRootsCommand,
  type PolicySummary,
  type PolicyType,
} from "@aws-sdk/client-organizations";
import type { AwsCloudProvider, PolicyTypeOnTarget, RootPolicyTypes } from "../cloud-provider";
import { errorCode } from "../errors";
import type { AwsClients } from "./aws-clients";

/** Policies Palisade writes are named `palisade-…` (packed: `palisade-<target>-<slot>`). */
const PALISADE_NAME = /^palisade-/;

type PolicyTypeOperations = Pick<AwsCloudProvider, "readRootPolicyTypes" | "readPolicyTypeOnTarget">;

/**
 * What Organizations reports of its policy types: per root, the types and their status
 * (https://docs.aws.amazon.com/organizations/latest/APIReference/API_Root.html), and per target
 * the policies of a type attached to it directly
 * (https://docs.aws.amazon.com/organizations/latest/APIReference/API_ListPoliciesForTarget.html).
 */
export function createPolicyTypeOperations({
  organizations,
  call,
  allPages,
}: AwsClients): PolicyTypeOperations {
  return {
    async readRootPolicyTypes(): Promise<RootPolicyTypes[]> {
      const out = await call(() => organizations.send(new ListRootsCommand({})));
      return (out.Roots ?? []).map((root) => ({
        rootId: root.Id ?? "",
        types: (root.PolicyTypes ?? []).map((t) => ({ type: t.Type ?? "", status: t.Status ?? "" })),
      }));
    },
    async readPolicyTypeOnTarget(targetId: string, type: string): Promise<PolicyTypeOnTarget> {
      let attached: PolicySummary[];
      try {
        attached = await allPages(async (NextToken) => {
          const out = await call(() =>
            organizations.send(
              new ListPoliciesForTargetCommand({ TargetId: targetId, Filter: type as PolicyType, NextToken }),
            ),
          );
          return { items: out.Policies ?? [], next: out.NextToken };
        });
      } catch (error) {
        // A type the organisation has not enabled has nothing attached.
        if (errorCode(error) === "PolicyTypeNotEnabledException") return { attached: 0, palisade: [] };
        throw error;
      }
      const palisade: PolicyTypeOnTarget["palisade"] = [];
      for (const policy of attached) {
        if (!PALISADE_NAME.test(policy.Name ?? "") || policy.AwsManaged) continue;
        const out = await call(() => organizations.send(new DescribePolicyCommand({ PolicyId: policy.Id })));
        palisade.push({
          id: policy.Id ?? "",
          name: policy.Name ?? "",
          characters: out.Policy?.Content?.length ?? 0,
        });
      }
      return { attached: attached.length, palisade };
    },
  };
}
