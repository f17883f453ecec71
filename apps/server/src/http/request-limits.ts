import type { HttpApp } from "./http-app";

/** Paths of the RPC routes: `/<package>.<Service>/<Method>`, server reflection included. */
export function isRpcPath(url: string): boolean {
  return url.startsWith("/palisade.") || url.startsWith("/grpc.reflection.");
}

/**
 * Refuses a request whose declared body is over the limit before a byte of it is read. Bodies
 * without a declared length are bounded while they are read: by Fastify's `bodyLimit` on its
 * own routes, and by Connect's `readMaxBytes` (which also bounds decompression) on the RPCs.
 */
export function registerRequestLimits(app: HttpApp, maxRequestBytes: number) {
  app.addHook("onRequest", async (request, reply) => {
    const declared = Number(request.headers["content-length"] ?? 0);
    if (!(declared > maxRequestBytes)) return;
    const message = `The request body is ${declared} bytes; the limit is ${maxRequestBytes} bytes.`;
    // Closing the connection spares reading the rest of the body just to throw it away; HTTP/2
    // has no such header (the stream ends with the answer, the connection serves others).
    reply.code(413);
    if (request.raw.httpVersionMajor < 2) reply.header("connection", "close");
    // Connect clients read the code from a JSON body when the status is not 200.
    if (isRpcPath(request.url)) return reply.send({ code: "resource_exhausted", message });
    return reply.send({ statusCode: 413, error: "Payload Too Large", message });
  });
}
