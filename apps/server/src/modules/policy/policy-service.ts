import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { requireSlug } from "../policy-definition/policy-definition-service";

/**
 * The tenant's policies and the public waiver page's lookups. GetBundleByKey and GetPolicies
 * belong with the deployments and are added beside this one.
 */
export function createPolicyService(deps: {
  catalogue: Catalogue;
}): Pick<ServiceImpl<typeof PolicyService>, "getDefinitionBySlug"> {
  const { catalogue } = deps;
  return {
    /**
     * Public: the page has no tenant, so only catalogue definitions are looked up (a tenant's own
     * definitions stay private), and nothing but the links is answered.
     */
    async getDefinitionBySlug(req) {
      const slug = requireSlug(req.slug);
      const definition = catalogue.bySlug.get(slug);
      if (!definition) throw new ConnectError(`No policy definition with slug "${slug}".`, Code.NotFound);
      return {
        slug: definition.slug,
        furtherReadingUrls: definition.further_reading_urls.map(({ name, href }) => ({ name, href })),
      };
    },
  };
}
