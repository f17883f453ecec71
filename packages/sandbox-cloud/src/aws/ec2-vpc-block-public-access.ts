import type { StateStore } from "../state/store";
import {
  accountSettings,
  declarativeDenial,
  dryRunSucceeded,
  ec2SettingCall,
  invalidParameter,
  managedBy,
  policyValue,
} from "./ec2-account-settings";
import { elements } from "./s3/s3-xml";
import type { WireCaller } from "./wire-caller";

/**
 * VPC Block Public Access for the account and Region
 * (https://docs.aws.amazon.com/vpc/latest/userguide/security-vpc-bpa.html):
 * ModifyVpcBlockPublicAccessOptions sets the internet gateway block mode and
 * DescribeVpcBlockPublicAccessOptions answers the options, `managedBy` and `exclusionsAllowed`
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_VpcBlockPublicAccessOptions.html).
 * A declarative policy's `vpc_block_public_access.internet_gateway_block`
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html)
 * sets the mode (`block_ingress` answered as `block-ingress`) and whether exclusions are allowed;
 * the account cannot change the mode while it does, so Modify is refused. The sandbox answers the
 * change as complete at once (`update-complete`), where AWS first reports `update-in-progress`.
 */
const MODE = "vpc_block_public_access.internet_gateway_block.mode";
const EXCLUSIONS = "vpc_block_public_access.internet_gateway_block.exclusions_allowed";
const MODES = ["off", "block-bidirectional", "block-ingress"] as const;

export function vpcBlockPublicAccessCall(
  store: StateStore,
  who: WireCaller,
  action: string,
  params: URLSearchParams,
): string {
  const own = accountSettings(store, who);
  const options = (mode: string, managed: boolean, exclusions: string | undefined) =>
    `<vpcBlockPublicAccessOptions>${elements([
      ["awsAccountId", who.account.id],
      ["awsRegion", who.signed.region],
      ["state", own.vpcBlockPublicAccessUpdated || managed ? "update-complete" : "default-state"],
      ["internetGatewayBlockMode", mode],
      ["lastUpdateTimestamp", own.vpcBlockPublicAccessUpdated],
      ["managedBy", managedBy(managed)],
      ["exclusionsAllowed", exclusions === "disabled" ? "not-allowed" : "allowed"],
    ])}</vpcBlockPublicAccessOptions>`;
  if (action === "DescribeVpcBlockPublicAccessOptions") {
    return ec2SettingCall(store, who, action, null, params, (effective) => {
      const policy = policyValue(effective, MODE);
      const mode = policy?.replace(/_/g, "-") ?? own.vpcInternetGatewayBlockMode ?? "off";
      return {
        result: options(mode, policy !== undefined, policyValue(effective, EXCLUSIONS)),
        responseElements: null,
      };
    });
  }
  const requested = params.get("InternetGatewayBlockMode");
  return ec2SettingCall(
    store,
    who,
    action,
    { ModifyVpcBlockPublicAccessOptionsRequest: { InternetGatewayBlockMode: requested } },
    params,
    (effective, dryRun) => {
      const wanted = MODES.find((m) => m === requested);
      if (!wanted)
        throw invalidParameter("InternetGatewayBlockMode must be off, block-bidirectional or block-ingress.");
      const policy = policyValue(effective, MODE);
      if (policy !== undefined)
        throw declarativeDenial(
          effective,
          `VPC block public access is ${policy.replace(/_/g, "-")} by the organisation and cannot be changed by the account`,
        );
      if (dryRun) throw dryRunSucceeded();
      own.vpcInternetGatewayBlockMode = wanted;
      own.vpcBlockPublicAccessUpdated = store.now().toISOString();
      return {
        result: options(wanted, false, undefined),
        responseElements: { vpcBlockPublicAccessOptions: { internetGatewayBlockMode: wanted } },
      };
    },
  );
}
