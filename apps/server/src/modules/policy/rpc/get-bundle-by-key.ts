import { create, fromJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import {
  type GetBundleByKeyRequest,
  type GetBundleByKeyResponse,
  GetBundleByKeyResponseSchema,
} from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { isPolicyKeyFormat, normalizePolicyKey } from "@palisade/policy-engine/keys/policy-key";
import { invalidField } from "../../../rpc/errors";
import type { BundleCard, PolicyServiceDeps } from "../policies";

/**
 * The answer for each card, built once: a card lives in the lookup cache for seconds and answers
 * every lookup of its key meanwhile, so the answer (its parameters as protobuf values) is not
 * rebuilt per call. Goes with the card when the cache lets it go.
 */
const answers = new WeakMap<BundleCard, GetBundleByKeyResponse>();

function answerOf(card: BundleCard): GetBundleByKeyResponse {
  let answer = answers.get(card);
  if (!answer) {
    answer = create(GetBundleByKeyResponseSchema, {
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
    });
    answers.set(card, answer);
  }
  return answer;
}

/**
 * Public: keys are unique across tenants, so no tenant is needed; only what the waiver page's
 * card shows is answered. Deleted bundles are not found.
 */
export async function getBundleByKey(
  deps: PolicyServiceDeps,
  req: GetBundleByKeyRequest,
  _ctx: HandlerContext,
): Promise<GetBundleByKeyResponse> {
  const key = normalizePolicyKey(req.key);
  if (!isPolicyKeyFormat(key)) {
    throw invalidField("key", "a policy key is 7 characters (0-9, A-Z without I, L, O, U).");
  }
  const card = await deps.bundleCard(key);
  if (!card) throw new ConnectError(`No policy with key ${key}.`, Code.NotFound);
  return answerOf(card);
}
