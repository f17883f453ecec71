import type { StateStore } from "../state/store";
import type { EffectiveDeclarative } from "./declarative-effective";
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
 * What block public access for AMIs and for EBS snapshots share: an account-level state per Region,
 * `unblocked` until set, that Enable<Setting> sets to one of its blocking states, Disable<Setting>
 * sets back to `unblocked` and Get<Setting>State answers with `managedBy`. A declarative policy's
 * `<attribute>.state` (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html)
 * sets it (`block_new_sharing` answered as `block-new-sharing`) and the account cannot change it:
 * both Enable and Disable are refused while it does. Each setting's own file cites its pages.
 */
export interface BlockPublicAccessSetting {
  /** The Get action; Enable and Disable are the other two. */
  get: string;
  enable: string;
  /** Enable's Query parameter, and the element (and CloudTrail field) the state is answered in. */
  parameter: string;
  element: string;
  /** The blocking states Enable accepts. */
  states: readonly string[];
  /** The attribute below `ec2_attributes` that a declarative policy sets. */
  attribute: string;
  /** Where the account's own state is kept. */
  own: "imageBlockPublicAccessState" | "snapshotBlockPublicAccessState";
  /** The setting as refusals name it, e.g. `block public access for AMIs`. */
  what: string;
}

export interface BlockPublicAccess {
  /** The setting as refusals name it. */
  what: string;
  /** The state in force for the caller's account and Region, and whether a declarative policy sets it. */
  state(
    store: StateStore,
    who: WireCaller,
    effective: EffectiveDeclarative,
  ): { state: string; managed: boolean };
  /** Serves the setting's Enable, Disable and Get actions. */
  call(store: StateStore, who: WireCaller, action: string, params: URLSearchParams): string;
}

export function blockPublicAccess(setting: BlockPublicAccessSetting): BlockPublicAccess {
  const { element } = setting;
  const state: BlockPublicAccess["state"] = (store, who, effective) => {
    const policy = policyValue(effective, setting.attribute);
    if (policy !== undefined) return { state: policy.replace(/_/g, "-"), managed: true };
    return { state: accountSettings(store, who)[setting.own] ?? "unblocked", managed: false };
  };
  const call: BlockPublicAccess["call"] = (store, who, action, params) => {
    if (action === setting.get) {
      return ec2SettingCall(store, who, action, null, params, (effective) => {
        const { state: current, managed } = state(store, who, effective);
        return {
          result: elements([
            [element, current],
            ["managedBy", managedBy(managed)],
          ]),
          responseElements: null,
        };
      });
    }
    const enable = action === setting.enable;
    const requested = params.get(setting.parameter);
    const requestParameters = enable ? { [element]: requested } : null;
    return ec2SettingCall(store, who, action, requestParameters, params, (effective, dryRun) => {
      const wanted = enable ? setting.states.find((s) => s === requested) : "unblocked";
      if (!wanted) throw invalidParameter(`${setting.parameter} must be ${setting.states.join(" or ")}.`);
      const { state: current, managed } = state(store, who, effective);
      if (managed)
        throw declarativeDenial(
          effective,
          `${setting.what} is ${current} by the organisation and cannot be changed by the account`,
        );
      if (dryRun) throw dryRunSucceeded();
      (accountSettings(store, who) as Record<string, string>)[setting.own] = wanted;
      return { result: elements([[element, wanted]]), responseElements: { [element]: wanted } };
    });
  };
  return { what: setting.what, state, call };
}
