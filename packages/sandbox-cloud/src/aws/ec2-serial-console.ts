import type { StateStore } from "../state/store";
import {
  accountSettings,
  declarativeDenial,
  dryRunSucceeded,
  ec2SettingCall,
  managedBy,
  policyValue,
} from "./ec2-account-settings";
import { elements } from "./s3/s3-xml";
import type { WireCaller } from "./wire-caller";

/**
 * EC2 serial console access, an account-level setting per Region
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configure-access-to-serial-console.html#serial-console-account-access):
 * disabled by default; EnableSerialConsoleAccess / DisableSerialConsoleAccess change it
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_EnableSerialConsoleAccess.html) and
 * GetSerialConsoleAccessStatus reads it with `managedBy`
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_GetSerialConsoleAccessStatus.html).
 *
 * A declarative policy's `serial_console_access.status`
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html)
 * sets the status, and the account cannot change it: the sandbox refuses both Enable and Disable
 * while the policy manages it, even one that asks for the value the policy already sets (the
 * documentation says the account "can't modify" it; refusing every change is the stricter reading).
 */
const ATTRIBUTE = "serial_console_access.status";

export function serialConsoleAccess(
  store: StateStore,
  who: WireCaller,
  action: string,
  params: URLSearchParams,
): string {
  const own = accountSettings(store, who);
  if (action === "GetSerialConsoleAccessStatus") {
    return ec2SettingCall(store, who, action, null, params, (effective) => {
      const policy = policyValue(effective, ATTRIBUTE);
      const enabled = policy !== undefined ? policy === "enabled" : own.serialConsoleAccessEnabled === true;
      return {
        result: elements([
          ["serialConsoleAccessEnabled", enabled],
          ["managedBy", managedBy(policy !== undefined)],
        ]),
        responseElements: null,
      };
    });
  }
  const enable = action === "EnableSerialConsoleAccess";
  return ec2SettingCall(store, who, action, null, params, (effective, dryRun) => {
    const policy = policyValue(effective, ATTRIBUTE);
    if (policy !== undefined)
      throw declarativeDenial(
        effective,
        `serial console access is ${policy} by the organisation and cannot be changed by the account`,
      );
    if (dryRun) throw dryRunSucceeded();
    own.serialConsoleAccessEnabled = enable;
    return {
      result: elements([["serialConsoleAccessEnabled", enable]]),
      responseElements: { serialConsoleAccessEnabled: enable },
    };
  });
}
