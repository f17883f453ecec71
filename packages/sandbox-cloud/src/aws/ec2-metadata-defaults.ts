import { performAws } from "../enforce/aws-request";
import type { StateStore } from "../state/store";
import { effectiveDeclarative, exceptionMessage } from "./declarative-effective";
import { elements } from "./s3/s3-xml";
import { scpDenialError } from "./service-errors";
import type { WireCaller } from "./wire-caller";

/**
 * GetInstanceMetadataDefaults: the account's IMDS defaults in the region, `managedBy`
 * `declarative-policy` with the policy's `managedExceptionMessage` when the effective declarative
 * policy sets them (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_InstanceMetadataDefaultsResponse.html).
 * The sandbox keeps no account-level defaults of its own, so an account without such a policy has none.
 */
export function getInstanceMetadataDefaults(store: StateStore, who: WireCaller): string {
  const outcome = performAws(
    store,
    {
      caller: who.principal,
      account: who.account,
      action: "ec2:GetInstanceMetadataDefaults",
      resources: [{ arn: "*" }],
      region: who.signed.region,
      context: {},
      accessKeyId: who.signed.accessKeyId,
      userAgent: who.userAgent,
    },
    () => ({ result: effectiveDeclarative(store.state.aws, who.account.id), responseElements: null }),
  );
  if (!outcome.allowed) throw scpDenialError(outcome.denial);
  const effective = outcome.result;
  const value = (field: string) => {
    const v = effective.get(`instance_metadata_defaults.${field}`);
    return v === undefined || v === "no_preference" || v === "-1" || v === -1 ? undefined : String(v);
  };
  const managed = [...effective.keys()].some((k) => k.startsWith("instance_metadata_defaults."));
  return `<accountLevel>${elements([
    ["httpTokens", value("http_tokens")],
    ["httpPutResponseHopLimit", value("http_put_response_hop_limit")],
    ["httpEndpoint", value("http_endpoint")],
    ["instanceMetadataTags", value("instance_metadata_tags")],
    ["managedBy", managed ? "declarative-policy" : "account"],
    ["managedExceptionMessage", managed ? exceptionMessage(effective) : undefined],
  ])}</accountLevel>`;
}
