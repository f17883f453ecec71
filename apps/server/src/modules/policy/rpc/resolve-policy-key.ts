import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  ResolvePolicyKeyRequest,
  ResolvePolicyKeyResponseSchema,
} from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { findPolicyKeyInText } from "@palisade/policy-engine/keys/policy-key";
import { keyOfDeniedRequest } from "../deny-message-key";
import { findLiveBundleKey, type PolicyServiceDeps } from "../policies";

/** A deny message names one SCP; a few candidates cover ids that merely look like one. */
const MAX_SCP_IDS = 5;

/**
 * Public: AWS deny messages name the SCP, not the key, so the SCP id is mapped to the key of
 * the guardrail in that SCP that denies the request the message describes. A key written in the text itself counts only when a bundle
 * holds it, so the answer never confirms more than GetBundleByKey would.
 */
export async function resolvePolicyKey(
  deps: PolicyServiceDeps,
  req: ResolvePolicyKeyRequest,
  _ctx: HandlerContext,
): Promise<MessageInitShape<typeof ResolvePolicyKeyResponseSchema>> {
  const found = findPolicyKeyInText(req.text);
  const deployed = await keyOfDeniedRequest(deps, req.text, found.scpPolicyIds.slice(0, MAX_SCP_IDS));
  if (deployed) return { key: deployed };
  if (found.key) {
    const key = await findLiveBundleKey(deps.db, found.key);
    if (key) return { key };
  }
  throw new ConnectError("No deployed policy is named in this message.", Code.NotFound);
}
