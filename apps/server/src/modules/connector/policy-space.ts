import { AWS_POLICY_TYPES, type AwsPolicyType } from "@palisade/policy-engine/catalogue/definition-schema";
import type { AwsCloudProvider } from "../../cloud/cloud-provider";
import { policyLimitsOf } from "./policy-quotas";

/** One policy type on one target, against the connector's quotas. */
export interface TypeSpace {
  type: AwsPolicyType;
  attached: number;
  palisadePolicies: number;
  maxPerTarget: number;
  charactersUsed: number;
  charactersAvailable: number;
  maxCharacters: number;
}

/** Each policy type on the target as the cloud holds it, measured against the connector's quotas. */
export async function readTargetSpace(
  provider: AwsCloudProvider,
  config: unknown,
  targetId: string,
): Promise<TypeSpace[]> {
  const out: TypeSpace[] = [];
  for (const type of AWS_POLICY_TYPES) {
    const limits = policyLimitsOf(config, type);
    const { attached, palisade } = await provider.readPolicyTypeOnTarget(targetId, type);
    // Policies not Palisade's (FullAWSAccess, the organisation's own) take slots Palisade cannot use.
    const others = attached - palisade.length;
    out.push({
      type,
      attached,
      palisadePolicies: palisade.length,
      maxPerTarget: limits.perTarget,
      charactersUsed: palisade.reduce((sum, p) => sum + p.characters, 0),
      charactersAvailable: Math.max(0, limits.perTarget - others) * limits.characters,
      maxCharacters: limits.characters,
    });
  }
  return out;
}
