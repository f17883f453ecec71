import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  GetDefinitionBySlugRequest,
  GetDefinitionBySlugResponseSchema,
} from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { requireSlug, safeReadingUrls } from "../../policy-definition/policy-definition-api";
import type { PolicyServiceDeps } from "../policies";

/**
 * Public: the page has no tenant, so only catalogue definitions are looked up (a tenant's own
 * definitions stay private), and nothing but the name and the links is answered.
 */
export async function getDefinitionBySlug(
  deps: PolicyServiceDeps,
  req: GetDefinitionBySlugRequest,
  _ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetDefinitionBySlugResponseSchema>> {
  const slug = requireSlug(req.slug);
  const definition = deps.catalogue.bySlug.get(slug);
  if (!definition) throw new ConnectError(`No policy definition with slug "${slug}".`, Code.NotFound);
  return {
    slug: definition.slug,
    displayName: definition.display_name,
    furtherReadingUrls: safeReadingUrls(definition.further_reading_urls).map(({ name, href }) => ({
      name,
      href,
    })),
  };
}
