import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance, RawServerDefault } from "fastify";
import type { Logger } from "../logger";

/** The Fastify instance Palisade builds, with its logger. */
export type HttpApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, Logger>;
