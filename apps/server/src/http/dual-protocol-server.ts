import http, { type IncomingMessage, type ServerResponse } from "node:http";
import http2 from "node:http2";
import type { Socket } from "node:net";
import type { FastifyServerFactory } from "fastify";

/**
 * What an HTTP/2 client with prior knowledge sends first (RFC 9113, section 3.4). No HTTP/1.1
 * request starts this way: PRI is reserved so that an HTTP/1.1 server fails on it.
 */
const HTTP2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

/** An HTTP/2 connection that opens no stream for this long is closed; clients reconnect. */
const HTTP2_IDLE_MILLISECONDS = 5 * 60_000;

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * HTTP/1.1 and cleartext HTTP/2 (h2c with prior knowledge, as gRPC clients speak it) on one port.
 *
 * Node's HTTP/2 server takes HTTP/1.1 clients too (`allowHTTP1`) only over TLS, where ALPN names
 * the protocol. Without TLS the first bytes do: a connection that opens with the HTTP/2 preface
 * is handed to an HTTP/2 server, any other to this HTTP/1.1 server. Both call the same handler
 * (Fastify's), so every route, hook and RPC interceptor applies alike to either protocol.
 */
export class DualProtocolServer extends http.Server {
  private readonly http2Server: http2.Http2Server;
  private readonly sessions = new Set<http2.ServerHttp2Session>();

  constructor(options: http.ServerOptions, handler: Handler) {
    super(options, handler);
    // As many concurrent calls per connection as gRPC servers commonly allow.
    this.http2Server = http2.createServer({ settings: { maxConcurrentStreams: 100 } }, handler as never);
    this.http2Server.on("session", (session) => {
      this.sessions.add(session);
      session.once("close", () => this.sessions.delete(session));
      session.setTimeout(HTTP2_IDLE_MILLISECONDS, () => session.close());
    });
    // A client that breaks the protocol loses its connection; nothing else is affected.
    this.http2Server.on("sessionError", () => undefined);
  }

  // biome-ignore lint/suspicious/noExplicitAny: Node's EventEmitter signature
  override emit(event: string | symbol, ...args: any[]): boolean {
    if (event !== "connection") return super.emit(event as string, ...args);
    this.route(args[0] as Socket);
    return true;
  }

  /** Stops listening and lets every HTTP/2 connection finish its streams, then close. */
  override close(callback?: (error?: Error) => void): this {
    super.close(callback);
    for (const session of this.sessions) session.close();
    return this;
  }

  /** Reads until the first bytes tell the protocol, then gives the connection to its server. */
  private route(socket: Socket) {
    let received = Buffer.alloc(0);
    // A connection that says nothing is closed as HTTP/1.1 would close it while waiting for headers.
    const silence = setTimeout(() => socket.destroy(), this.headersTimeout || 60_000);
    const hand = (http2Connection: boolean) => {
      clearTimeout(silence);
      socket.off("data", onData);
      socket.off("error", onError);
      socket.off("close", onClose);
      socket.pause();
      socket.unshift(received);
      // The HTTP/2 session reads what is buffered itself; the HTTP/1.1 parser waits for the flow.
      if (http2Connection) this.http2Server.emit("connection", socket);
      else {
        super.emit("connection", socket);
        socket.resume();
      }
    };
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const length = Math.min(received.length, HTTP2_PREFACE.length);
      const prefix = received.subarray(0, length).equals(HTTP2_PREFACE.subarray(0, length));
      if (!prefix) hand(false);
      else if (received.length >= HTTP2_PREFACE.length) hand(true);
    };
    const onError = () => socket.destroy();
    const onClose = () => clearTimeout(silence);
    socket.on("data", onData);
    socket.on("error", onError);
    socket.on("close", onClose);
  }
}

/**
 * Fastify's server factory for the dual-protocol server; the HTTP/1.1 settings are the ones
 * Fastify applies to a server it creates itself.
 */
export const dualProtocolServerFactory: FastifyServerFactory = (handler, fastifyOptions) => {
  const options = fastifyOptions as {
    http?: http.ServerOptions;
    keepAliveTimeout?: number;
    requestTimeout?: number;
    connectionTimeout?: number;
    maxRequestsPerSocket?: number;
  };
  const server = new DualProtocolServer(options.http ?? {}, handler as Handler);
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  server.setTimeout(options.connectionTimeout ?? 0);
  if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  return server;
};
