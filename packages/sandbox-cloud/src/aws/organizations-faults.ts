import { AwsError } from "./common";

/**
 * Transient errors Organizations answers a write with, as documented for the operations that can
 * return them (https://docs.aws.amazon.com/organizations/latest/APIReference/API_AttachPolicy.html#API_AttachPolicy_Errors,
 * https://docs.aws.amazon.com/organizations/latest/APIReference/CommonErrors.html): the caller is
 * told to try again later. The sandbox answers the next `count` calls of an operation with one.
 */
const FAULTS: Record<string, { message: string; operations: string[] | "any" }> = {
  ConcurrentModificationException: {
    message:
      "The target of the operation is currently being modified by a different request. Try again later.",
    operations: "any",
  },
  PolicyChangesInProgressException: {
    message:
      "Changes to the effective policy are in progress, and its contents can't be returned. Try the operation again later.",
    // The operations whose documented errors include it.
    operations: ["AttachPolicy", "DetachPolicy", "UpdatePolicy", "EnablePolicyType", "DisablePolicyType"],
  },
  TooManyRequestsException: {
    message:
      "You have sent too many requests in too short a period of time. The quota helps protect against denial-of-service attacks. Try again later.",
    operations: "any",
  },
};

interface Fault {
  operation: string;
  code: string;
  left: number;
}

export interface OrganizationsFaults {
  /** `POST /sandbox/control/organizations-fault` {operation, code, count}: undefined when accepted, else why not. */
  set(input: Record<string, unknown>): string | undefined;
  /** The error the next call of `operation` fails with, if one is due. */
  take(operation: string): AwsError | undefined;
  pending(): { operation: string; code: string; left: number }[];
}

export function createOrganizationsFaults(): OrganizationsFaults {
  let faults: Fault[] = [];
  return {
    set(input) {
      const operation = String(input.operation ?? "");
      const code = String(input.code ?? "");
      const count = Number(input.count ?? 1);
      const fault = FAULTS[code];
      if (!fault) return `code must be one of ${Object.keys(FAULTS).join(", ")}.`;
      if (!/^[A-Z][A-Za-z]+$/.test(operation))
        return "operation must name an Organizations operation, e.g. AttachPolicy.";
      if (fault.operations !== "any" && !fault.operations.includes(operation))
        return `Organizations documents ${code} only for ${fault.operations.join(", ")}.`;
      if (!Number.isInteger(count) || count < 0) return "count must be a non-negative integer.";
      faults = [
        ...faults.filter((f) => f.left > 0 && f.operation !== operation),
        { operation, code, left: count },
      ];
      return undefined;
    },
    take(operation) {
      const fault = faults.find((f) => f.operation === operation && f.left > 0);
      if (!fault) return undefined;
      fault.left -= 1;
      return new AwsError(fault.code, FAULTS[fault.code]!.message, 400, { Type: "AWSOrganizations" });
    },
    pending() {
      return faults.filter((f) => f.left > 0).map((f) => ({ ...f }));
    },
  };
}
