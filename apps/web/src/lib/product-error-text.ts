import type { ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { productErrorCodeOf } from "./error-detail";

/** What a person reads for a product error: a title, what happened, and what to do next. */
export interface ProductErrorText {
  title: string;
  message: string;
}

// Keyed by the enum's numbers so that the public waiver page does not load the protobuf runtime;
// product-error-text.test.ts checks every code of the contract has its sentence under its number.
const texts: Record<number, ProductErrorText> = {
  1: {
    title: "Cloud Sync Failed",
    message:
      "The policy could not be synced to the cloud. Check the connector's status and permissions, then sync the deployment again.",
  },
  2: {
    title: "Waiver Not Created",
    message:
      "The cloud did not accept the waiver. Try again in a few minutes; if it keeps failing, ask an administrator to check the connector.",
  },
  3: {
    title: "Waiver Not Removed",
    message:
      "The cloud refused to remove the waiver's exemption (a resource lock, or missing rights), so it still lets actions through. Palisade tries again at every sync; ask an administrator to lift the lock or grant the connector the right to delete policy exemptions.",
  },
  4: {
    title: "Too Many Open Waivers",
    message:
      "This policy already has the most pending or active waivers a deployment allows. Ask someone to cancel a waiver you no longer need, or wait for one to expire, then request again.",
  },
  5: {
    title: "Resource Not Found",
    message:
      "The resource named in the request does not exist in the cloud. Check the resource identifier and try again.",
  },
  6: {
    title: "Scope Not Allowed",
    message:
      "A waiver cannot be requested for this scope. Choose a scope the policy is deployed to, or ask an administrator.",
  },
  7: {
    title: "Policy Limit Reached",
    message:
      "The cloud allows no more policies in this scope. Remove policies you no longer need, or deploy to another scope.",
  },
  8: {
    title: "Cloud Subscription Disabled",
    message:
      "The cloud subscription or account is disabled. Enable it in the cloud provider, then try again.",
  },
  9: {
    title: "Exemption Limit Reached",
    message:
      "The cloud allows no more exemptions in this scope. Cancel waivers you no longer need, then try again.",
  },
  10: {
    title: "Policy Not Applied",
    message:
      "The cloud refused to apply the policy to a scope (a resource lock, or missing rights), so the scope is not guarded as the bundle says. Ask an administrator to lift the lock or grant the connector the right to assign policies there, then sync the bundle.",
  },
  11: {
    title: "Policy Not Removed",
    message:
      "The cloud refused to remove the policy from a scope (a resource lock, or missing rights), so it still applies there. Palisade tries again at every sync; ask an administrator to lift the lock or grant the connector the right to remove policies there.",
  },
  12: {
    title: "Invalid Cloud Scope",
    message:
      "The cloud does not recognise this scope. Refresh the connector's hierarchy and choose the scope again.",
  },
  13: {
    title: "Waiver Scope Not Understood",
    message: "The waiver's scope could not be read. Check the scope or resource you entered and try again.",
  },
  14: {
    title: "Cloud Policy Not Created",
    message:
      "The cloud refused the policy Palisade builds for this guardrail, or its definition is no longer in the catalogue. Check the connector's permissions and the bundle's parameters, then sync the bundle.",
  },
  15: {
    title: "Waivers Out of Sync",
    message:
      "The cloud holds a waiver Palisade did not make, or lost one Palisade granted. A lost waiver is put back automatically; one made outside Palisade is named in the audit log: remove it in the cloud, or request it through Palisade instead.",
  },
};

/** The sentence for a product error code; undefined for none (0) or a code this client does not know. */
export function productErrorText(code: ProductErrorCode): ProductErrorText | undefined {
  return texts[code];
}

/** The sentence for the product error an RPC failure carries, if it carries one. */
export function productErrorTextOf(error: unknown): ProductErrorText | undefined {
  return productErrorText(productErrorCodeOf(error));
}
