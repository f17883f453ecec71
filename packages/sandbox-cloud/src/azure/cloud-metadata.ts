import type { SandboxRequest, SandboxResponse } from "../http/types";
import { armError, armOk } from "./arm-http";
import { ARM_AUDIENCE } from "./token";

/** The one version of the endpoint document clients ask for (`az cloud register`, Azure Stack Hub's tools). */
const METADATA_API_VERSION = "2015-01-01";

/**
 * `GET /metadata/endpoints`: the cloud's endpoints, read without authentication before anything
 * else, shaped as Azure Stack Hub documents it
 * (https://learn.microsoft.com/en-us/azure-stack/user/azure-stack-rest-api-use, "Azure Stack Hub
 * management endpoint"). The sign-in endpoint is the sandbox's AD FS-style authority and the
 * audience its Resource Manager's.
 */
export function cloudMetadata(req: SandboxRequest, baseUrl: string): SandboxResponse | undefined {
  if (req.method !== "GET" || req.path.replace(/\/+$/, "").toLowerCase() !== "/metadata/endpoints") {
    return undefined;
  }
  const version = req.query.get("api-version");
  if (!version) {
    return armError(
      400,
      "MissingApiVersionParameter",
      "The api-version query parameter (?api-version=) is required for all requests.",
    );
  }
  if (version !== METADATA_API_VERSION) {
    return armError(
      400,
      "InvalidApiVersionParameter",
      `The api-version '${version}' is invalid. The supported versions are '${METADATA_API_VERSION}'.`,
    );
  }
  return armOk({
    galleryEndpoint: `${baseUrl}/`,
    graphEndpoint: "https://graph.windows.net/",
    portalEndpoint: `${baseUrl}/`,
    authentication: { loginEndpoint: `${baseUrl}/adfs/`, audiences: [`${ARM_AUDIENCE}/`] },
  });
}
