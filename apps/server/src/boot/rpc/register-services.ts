import type { GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import type { ConnectRouter } from "@connectrpc/connect";
import { allServices } from "@palisade/api/services";
import type { AnyServiceImpl } from "../../rpc/service-impl";

/**
 * Registers every service of the contract with its handlers. A service or method without a
 * handler stops the server at start-up, naming what is missing: the contract and the server
 * never disagree at run time.
 */
export function registerServices(router: ConnectRouter, implementations: Map<string, AnyServiceImpl>): void {
  const missing = allServices.flatMap((service) =>
    service.methods
      .filter((method) => !implementations.get(service.typeName)?.[method.localName])
      .map((method) => `${service.typeName}.${method.name}`),
  );
  if (missing.length > 0) throw new Error(`RPC methods without a handler: ${missing.join(", ")}`);
  for (const service of allServices) {
    router.service(service as GenService<GenServiceMethods>, implementations.get(service.typeName) ?? {});
  }
}
