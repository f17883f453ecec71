import { createHash } from "node:crypto";
import {
  create,
  type DescMessage,
  fromBinary,
  isMessage,
  type Message,
  type MessageInitShape,
  toBinary,
} from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { Database } from "../db/database";
import { callContext } from "./call-context";
import { invalidArgument } from "./errors";
import { claimIdempotentCall, recordIdempotentAnswer, releaseIdempotentCall } from "./idempotency-repository";
import type { AnyServiceImpl } from "./service-impl";

/** A retry with the same key within this window gets the first answer (as WaiverService.Create). */
export const IDEMPOTENCY_WINDOW_MS = 10 * 60_000;
const MAX_IDEMPOTENCY_KEY = 128;

/**
 * The methods that create a record and accept an `Idempotency-Key` header. WaiverService.Create
 * reads the same header (idempotencyKeyOf) but keeps the key on the waiver itself, checked under
 * the bundle's lock in the transaction that creates the waiver, so a form submitted twice at once
 * gets the first waiver back rather than `aborted`; CreateApiKey is left out, as its answer is
 * the key, which is never stored in the clear.
 */
const CREATING_METHODS = new Set([
  "palisade.deployment.v1.DeploymentManagerService/CreateBundle",
  "palisade.deployment.v1.DeploymentManagerService/CreateWaiver",
  "palisade.connector.v1.ConnectorService/CreateConnector",
  "palisade.initiative.v1.InitiativeService/InstallInitiative",
  "palisade.policydefinition.v1.PolicyDefinitionService/Create",
  "palisade.recommendation.v1.RecommendationService/AddRecommendation",
  "palisade.recommendation.v1.RecommendationService/InstallRecommendation",
  "palisade.team.v1.TeamService/InviteMember",
  "palisade.tenant.v1.TenantService/CreateTenant",
]);

function acceptsIdempotencyKey(procedure: string): boolean {
  return CREATING_METHODS.has(procedure);
}

/** The call's `Idempotency-Key` header, if it sent one; refused when longer than allowed. */
export function idempotencyKeyOf(ctx: HandlerContext): string | undefined {
  const key = ctx.requestHeader.get("idempotency-key")?.trim();
  if (key && key.length > MAX_IDEMPOTENCY_KEY)
    throw invalidArgument(`The Idempotency-Key header must be at most ${MAX_IDEMPOTENCY_KEY} characters.`);
  return key || undefined;
}

/**
 * A creating call sent with an `Idempotency-Key` header runs once per caller and key: a retry
 * (the first answer was lost) gets the first answer, and creates nothing more. The same key with a
 * different request is refused; a retry while the first call still runs is told to try again.
 * Wraps the methods' implementations, so authentication and validation have run: a refused call
 * claims no key.
 */
export function withIdempotencyKeys(
  db: Database,
  implementations: Map<string, AnyServiceImpl>,
): Map<string, AnyServiceImpl> {
  const wrapped = new Map<string, AnyServiceImpl>();
  for (const [service, impl] of implementations) {
    const methods: AnyServiceImpl = { ...impl };
    for (const [name, method] of Object.entries(impl)) {
      const procedure = `${service}/${name.charAt(0).toUpperCase()}${name.slice(1)}`;
      if (typeof method === "function" && acceptsIdempotencyKey(procedure))
        methods[name] = (req: Message, ctx: HandlerContext) => once(db, method as Implementation, req, ctx);
    }
    wrapped.set(service, methods);
  }
  return wrapped;
}

type Implementation = (req: Message, ctx: HandlerContext) => Promise<MessageInitShape<DescMessage>>;

async function once(db: Database, method: Implementation, req: Message, ctx: HandlerContext) {
  const key = idempotencyKeyOf(ctx);
  const { caller } = callContext(ctx);
  if (!key || !caller) return method(req, ctx);
  const { input, output } = ctx.method;
  const call = {
    callerId: `${caller.kind}:${caller.id}`,
    procedure: `${ctx.service.typeName}/${ctx.method.name}`,
    key,
  };
  const requestDigest = createHash("sha256").update(toBinary(input, req)).digest("base64url");
  const claim = await claimIdempotentCall(
    db,
    caller.tenantId,
    { ...call, requestDigest },
    new Date(Date.now() - IDEMPOTENCY_WINDOW_MS),
  );
  if (!claim.claimed) {
    if (claim.requestDigest !== requestDigest)
      throw invalidArgument(
        "This Idempotency-Key was sent with a different request. Use a new key for a new request.",
      );
    if (claim.response === null)
      throw new ConnectError(
        "The first call with this Idempotency-Key is still running. Try again in a moment.",
        Code.Aborted,
      );
    return fromBinary(output, Buffer.from(claim.response, "base64"));
  }
  try {
    const answer = await method(req, ctx);
    const bytes = toBinary(output, isMessage(answer, output) ? answer : create(output, answer));
    await recordIdempotentAnswer(db, caller.tenantId, call, Buffer.from(bytes).toString("base64"));
    return answer;
  } catch (error) {
    // The original failure is what the caller needs to see; a claim left behind ends with the window.
    await releaseIdempotentCall(db, caller.tenantId, call).catch(() => undefined);
    throw error;
  }
}
