import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { isRecord } from "@/lib/form-draft";

/** The tenant settings form while it is edited. */
export interface SettingsValues {
  name: string;
  approvalMode: WaiverApprovalMode;
  maxHours: string;
  linkBaseUrl: string;
  separateApprover: boolean;
  domains: string;
}

/** One draft per tenant: a draft of one tenant never fills in another's settings. */
export function settingsDraftKey(tenantId: string): string {
  return `/settings:${tenantId}`;
}

/** Far above what the form accepts, so a draft can hold whatever was typed. */
const MAX_TEXT = 20_000;

/** The draft the settings page wrote, or null for anything else. */
export function parseSettingsDraft(value: unknown): SettingsValues | null {
  if (!isRecord(value)) return null;
  const { name, approvalMode, maxHours, linkBaseUrl, separateApprover, domains } = value;
  const texts = [name, maxHours, linkBaseUrl, domains];
  if (texts.some((text) => typeof text !== "string" || text.length > MAX_TEXT)) return null;
  if (typeof separateApprover !== "boolean") return null;
  if (approvalMode !== WaiverApprovalMode.AUTO && approvalMode !== WaiverApprovalMode.MANUAL) return null;
  return {
    name: name as string,
    approvalMode,
    maxHours: maxHours as string,
    linkBaseUrl: linkBaseUrl as string,
    separateApprover,
    domains: domains as string,
  };
}
