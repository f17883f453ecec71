import { fromJson, type MessageInitShape } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  GetBundleByKeyRequest,
  GetBundleByKeyResponseSchema,
} from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { isPolicyKeyFormat, normalizePolicyKey } from "@palisade/policy-engine/keys/policy-key";
import { invalidField } from "../../../rpc/errors";
import type { PolicyServiceDeps } from "../policies";

/**
 * Public: keys are unique across tenants, so no tenant is needed; only what the waiver page's
 * card shows is answered. Deleted bundles are not found.
 */
export async function getBundleByKey(
  deps: PolicyServiceDeps,
  req: GetBundleByKeyRequest,
  _ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetBundleByKeyResponseSchema>> {
  const key = normalizePolicyKey(req.key);
  if (!isPolicyKeyFormat(key)) {
    throw invalidField("key", "a policy key is 7 characters (0-9, A-Z without I, L, O, U).");
  }
  const card = await deps.bundleCard(key);
  if (!card) throw new ConnectError(`No policy with key ${key}.`, Code.NotFound);
  return {
    key: card.key,
    policySlug: card.policySlug,
    feedbackMessage: card.feedbackMessage,
    parameters: card.parameters.map((parameter) => ({
      name: parameter.name,
      displayName: parameter.displayName,
      description: parameter.description,
      value: fromJson(ValueSchema, parameter.value),
    })),
    waiverExemptsWholeAccount: card.waiverExemptsWholeAccount,
  };
}
