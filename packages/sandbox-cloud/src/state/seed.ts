import { createHash } from "node:crypto";
import type { SandboxState } from "./model";
import { createRandom } from "./random";
import { seedAwsOrganization } from "./seed-aws";
import { seedAzureTenant } from "./seed-azure";
import { ensureOrganizationTrail } from "./seed-trail";

/**
 * The sandbox's initial state, the same for the same seed. The random draws keep their order
 * (AWS organization, Azure tenant, AWS connector key, token signing key) so a seed keeps
 * producing the same organization, tenant and credentials.
 */
export function createSeedState(seed: number): SandboxState {
  const rnd = createRandom(seed);
  const aws = seedAwsOrganization(rnd);
  const azure = seedAzureTenant(rnd);
  const awsState = {
    ...aws,
    connector: {
      ...aws.connector,
      accessKeyId: `AKIA${rnd.chars(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")}`,
      secretAccessKey: rnd.chars(40, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"),
    },
  } as SandboxState["aws"];
  ensureOrganizationTrail(awsState);
  return {
    version: 1,
    seed,
    clockOffsetMs: 0,
    aws: awsState,
    azure: {
      ...azure,
      tokenSigningKey: createHash("sha256")
        .update(`${seed}:${rnd.chars(32)}`)
        .digest("hex"),
    },
  };
}
