import type { GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import { Code, ConnectError, type ConnectRouter, type ServiceImpl } from "@connectrpc/connect";
import { allServices } from "@palisade/api/services";

// biome-ignore lint/suspicious/noExplicitAny: implementations of differently typed services share one map
export type AnyServiceImpl = Partial<ServiceImpl<any>>;

/**
 * What each service of the contract offers, in words a user understands; a method that
 * this server does not implement yet answers `unimplemented` naming it.
 */
const capabilities: Record<string, string> = {
  "palisade.waiver.v1.WaiverService": "Waiver requests",
  "palisade.deployment.v1.DeploymentManagerService": "Policy deployments",
  "palisade.policydefinition.v1.PolicyDefinitionService": "The policy catalogue",
  "palisade.policy.v1.PolicyService": "Tenant policies",
  "palisade.event.v1.PolicyEventStoreService": "Policy events",
  "palisade.connector.v1.ConnectorService": "Cloud connectors",
  "palisade.team.v1.TeamService": "Team management",
  "palisade.initiative.v1.InitiativeService": "Initiatives",
  "palisade.recommendation.v1.RecommendationService": "Recommendations",
  "palisade.tenant.v1.TenantService": "Tenant settings",
  "palisade.account.v1.AccountService": "Your account",
  "palisade.sso.v1.SsoService": "Single sign-on",
};

/** Registers every service of the contract: the given handlers, `unimplemented` for the rest. */
export function registerServices(router: ConnectRouter, implementations: Map<string, AnyServiceImpl>): void {
  for (const service of allServices) {
    router.service(
      service as GenService<GenServiceMethods>,
      withUnimplemented(service, implementations.get(service.typeName)),
    );
  }
}

export function unimplementedMethods(implementations: Map<string, AnyServiceImpl>): string[] {
  return allServices.flatMap((service) =>
    service.methods
      .filter((method) => !implementations.get(service.typeName)?.[method.localName])
      .map((method) => `${service.typeName}.${method.name}`),
  );
}

function withUnimplemented(
  service: GenService<GenServiceMethods>,
  impl: AnyServiceImpl | undefined,
): AnyServiceImpl {
  const complete: AnyServiceImpl = { ...impl };
  const capability = capabilities[service.typeName] ?? service.name;
  for (const method of service.methods) {
    if (complete[method.localName]) continue;
    complete[method.localName] = () => {
      throw new ConnectError(
        `${capability}: not available on this server yet (${service.name}.${method.name}).`,
        Code.Unimplemented,
      );
    };
  }
  return complete;
}
