import type { GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import { TenantService } from "./gen/palisade/tenant/v1/tenant_pb";

// Every service of the contract: the server registers them all and tests iterate them.
export const allServices: readonly GenService<GenServiceMethods>[] = [TenantService];
