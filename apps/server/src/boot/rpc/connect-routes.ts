import { type DescMessage, fromBinary } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ConnectRouter,
  type ConnectRouterOptions,
  type ContextValues,
  createConnectRouter,
  createContextKey,
  createContextValues,
  type Interceptor,
} from "@connectrpc/connect";
import {
  type Compression,
  createAsyncIterable,
  readAllBytes,
  type UniversalHandler,
  type UniversalServerRequest,
} from "@connectrpc/connect/protocol";
import * as protoConnect from "@connectrpc/connect/protocol-connect";
import * as protoGrpc from "@connectrpc/connect/protocol-grpc";
import * as protoGrpcWeb from "@connectrpc/connect/protocol-grpc-web";
import {
  compressionBrotli,
  compressionGzip,
  universalRequestFromNodeRequest,
  universalResponseToNodeResponse,
} from "@connectrpc/connect-node";
import type { FastifyRequest } from "fastify";
import type { HttpApp } from "../../http/http-app";
import type { Logger } from "../../logger";

/**
 * The RPC routes: every method of the router, over Connect, gRPC-Web and gRPC, as the
 * `@connectrpc/connect-fastify` plugin registers them, with one difference: a binary request body
 * is decoded once before the method's handler sees it.
 *
 * Why: connect-es reports a binary body that does not decode ("parse binary: premature EOF") as
 * `internal`, before any interceptor runs, where a JSON body that does not decode is
 * `invalid_argument`. The caller sent a bad request; the answer must say so, on every protocol.
 * Rewriting the answers afterwards would mean reading four wire formats (a JSON body, a trailer
 * frame, a trailer header, an end-of-stream frame). Checking first lets each protocol write its
 * own answer: a body that does not decode is replaced by an empty message and the problem is
 * handed to the first interceptor, which refuses the call with `invalid_argument`. Every method of
 * the contract is unary, so reading the whole body first changes nothing for a caller; it is
 * bounded by `readMaxBytes` as before. Server reflection streams, and is left to the protocol. Only binary bodies are decoded twice (the web app sends JSON).
 */
export interface ConnectRoutesOptions extends ConnectRouterOptions {
  routes: (router: ConnectRouter) => void;
  contextValues: (request: FastifyRequest) => ContextValues;
  logger: Logger;
  readMaxBytes: number;
}

/** Why the body was refused before the method's handler could read it. */
const bodyProblemKey = createContextKey<ConnectError | undefined>(undefined, {
  description: "why the request body was refused",
});

const compressions: Compression[] = [compressionGzip, compressionBrotli];

type BodyFormat = { enveloped: false; encodingHeader: string } | { enveloped: true; encodingHeader: string };

/** How a binary body is framed and where its compression is named; undefined for JSON bodies. */
function binaryFormat(contentType: string | null): BodyFormat | undefined {
  const type = (contentType ?? "").split(";", 1)[0]?.trim().toLowerCase() ?? "";
  if (type === "application/proto") return { enveloped: false, encodingHeader: "content-encoding" };
  if (type === "application/connect+proto")
    return { enveloped: true, encodingHeader: "connect-content-encoding" };
  if (
    [
      "application/grpc",
      "application/grpc+proto",
      "application/grpc-web",
      "application/grpc-web+proto",
    ].includes(type)
  )
    return { enveloped: true, encodingHeader: "grpc-encoding" };
  return undefined;
}

/** The messages a body carries, or undefined when its framing or compression is for the protocol to judge. */
async function messagesOf(
  bytes: Uint8Array,
  format: BodyFormat,
  encoding: Compression | undefined,
  max: number,
) {
  if (!format.enveloped) return [encoding ? await encoding.decompress(bytes, max) : bytes];
  const messages: Uint8Array[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let offset = 0; offset < bytes.byteLength; ) {
    if (offset + 5 > bytes.byteLength) return undefined;
    const flags = view.getUint8(offset);
    const length = view.getUint32(offset + 1);
    const data = bytes.subarray(offset + 5, offset + 5 + length);
    if (data.byteLength < length) return undefined;
    const compressed = (flags & 0b01) !== 0;
    if (compressed && !encoding) return undefined;
    messages.push(compressed && encoding ? await encoding.decompress(data, max) : data);
    offset += 5 + length;
  }
  return messages;
}

/** An empty message in the body's framing: it decodes, so the call reaches the interceptors. */
function emptyBody(format: BodyFormat): UniversalServerRequest["body"] {
  return createAsyncIterable([new Uint8Array(format.enveloped ? 5 : 0)]);
}

/**
 * The body read, or why it is refused: too large, or a message that does not decode as `input`.
 * Undefined for a body the protocol reads itself (JSON); framing and compression the check cannot
 * follow are left for the protocol to judge.
 */
async function checkBody(
  request: UniversalServerRequest,
  input: DescMessage,
  readMaxBytes: number,
): Promise<{ problem: ConnectError; format: BodyFormat } | { bytes: Uint8Array } | undefined> {
  const format = binaryFormat(request.header.get("content-type"));
  if (!format || request.method !== "POST" || !isByteStream(request.body)) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = await readAllBytes(request.body, readMaxBytes, request.header.get("content-length"));
  } catch (error) {
    return { problem: ConnectError.from(error, Code.InvalidArgument), format };
  }
  const name = request.header.get(format.encodingHeader);
  const encoding = compressions.find((c) => c.name === name);
  const messages = await messagesOf(bytes, format, encoding, readMaxBytes).catch(() => undefined);
  for (const message of messages ?? []) {
    try {
      fromBinary(input, message);
    } catch (error) {
      const problem = `The request body is not a valid ${input.typeName}: ${(error as Error).message}.`;
      return { problem: new ConnectError(problem, Code.InvalidArgument), format };
    }
  }
  return { bytes };
}

function isByteStream(body: UniversalServerRequest["body"]): body is AsyncIterable<Uint8Array> {
  return typeof body === "object" && body !== null && Symbol.asyncIterator in body;
}

/** Refuses a call whose body was refused (see above), before authentication like a JSON body that does not parse. */
function bodyProblemInterceptor(): Interceptor {
  return (next) => async (request) => {
    const problem = request.contextValues.get(bodyProblemKey);
    if (problem) throw problem;
    return next(request);
  };
}

/** A handler that checks a binary body first (see above); a streaming method reads its messages as they come. */
function checkingDecode(handler: UniversalHandler, options: ConnectRoutesOptions): UniversalHandler {
  if (handler.method.methodKind !== "unary") return handler;
  const checked = async (request: UniversalServerRequest) => {
    const outcome = await checkBody(request, handler.method.input, options.readMaxBytes);
    if (!outcome) return handler(request);
    if ("bytes" in outcome) return handler({ ...request, body: createAsyncIterable([outcome.bytes]) });
    options.logger.info(
      {
        component: "rpc",
        procedure: handler.requestPath,
        contentType: request.header.get("content-type"),
        err: outcome.problem.rawMessage,
      },
      "request body refused",
    );
    const header = new Headers(request.header);
    header.delete("content-length");
    header.delete(outcome.format.encodingHeader);
    const contextValues = request.contextValues ?? createContextValues();
    contextValues.set(bodyProblemKey, outcome.problem);
    return handler({ ...request, header, body: emptyBody(outcome.format), contextValues });
  };
  return Object.assign(checked, handler);
}

/** Registers the RPC routes on the Fastify app. */
export async function registerConnectRoutes(app: HttpApp, options: ConnectRoutesOptions): Promise<void> {
  const router = createConnectRouter({
    acceptCompression: compressions,
    ...options,
    interceptors: [bodyProblemInterceptor(), ...(options.interceptors ?? [])],
  });
  options.routes(router);
  await app.register(async (scope) => {
    // The handlers read their bodies themselves.
    scope.addContentTypeParser(
      [
        protoConnect.contentTypeUnaryJson,
        protoConnect.contentTypeStreamJson,
        protoGrpcWeb.contentTypeProto,
        protoGrpcWeb.contentTypeJson,
        protoGrpc.contentTypeProto,
        protoGrpc.contentTypeJson,
      ],
      (_request, _payload, done) => done(null, undefined),
    );
    for (const regExp of [
      protoGrpc.contentTypeRegExp,
      protoGrpcWeb.contentTypeRegExp,
      protoConnect.contentTypeRegExp,
    ])
      scope.addContentTypeParser(regExp, (_request, _payload, done) => done(null, undefined));
    for (const handler of router.handlers) {
      const checked = checkingDecode(handler, options);
      scope.all(handler.requestPath, async (request, reply) => {
        try {
          const response = await checked(
            universalRequestFromNodeRequest(
              request.raw,
              reply.raw,
              undefined,
              options.contextValues(request),
            ),
          );
          // Headers set by hooks (security headers) live on the reply until it is sent; this answer
          // is written to the raw response, so they are copied there first.
          for (const [key, value] of Object.entries(reply.getHeaders())) {
            if (value !== undefined) reply.raw.setHeader(key, value);
          }
          await universalResponseToNodeResponse(response, reply.raw);
        } catch (error) {
          if (ConnectError.from(error).code === Code.Aborted) return;
          options.logger.error(
            { component: "rpc", procedure: handler.requestPath, err: (error as Error).message },
            "RPC handler failed",
          );
        }
      });
    }
  });
}
