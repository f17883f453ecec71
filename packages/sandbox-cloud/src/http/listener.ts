import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createNetServer, type Socket } from "node:net";
import type { SandboxTls } from "./self-signed";
import type { SandboxRequest, SandboxResponse } from "./types";

export type Handler = (req: SandboxRequest) => Promise<SandboxResponse> | SandboxResponse;

export interface Listener {
  port: number;
  close(): Promise<void>;
}

const MAX_BODY = 5 * 1024 * 1024;

/**
 * One port serves both plain HTTP (AWS SDKs, control API, CLI) and HTTPS (Azure SDKs, which refuse
 * bearer tokens over http). The first byte of a connection tells them apart: 0x16 opens a TLS handshake.
 */
export async function listen(
  handler: Handler,
  tls: SandboxTls,
  host: string,
  port: number,
): Promise<Listener> {
  const serve = (secure: boolean) => (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on("end", () => {
      // ARM clients expand "/{+scope}" with a scope that starts with "/", so paths may hold "//".
      const raw = req.url ?? "/";
      const q = raw.indexOf("?");
      const pathPart = (q < 0 ? raw : raw.slice(0, q)).replace(/\/{2,}/g, "/");
      const url = new URL(pathPart + (q < 0 ? "" : raw.slice(q)), "http://sandbox");
      Promise.resolve()
        .then(() =>
          handler({
            method: req.method ?? "GET",
            path: url.pathname,
            query: url.searchParams,
            headers: req.headers,
            body: Buffer.concat(chunks),
            secure,
          }),
        )
        .catch((err: unknown) => ({
          status: 500,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ error: { code: "InternalServerError", message: String(err) } }),
        }))
        .then((out) => {
          res.writeHead(out.status, out.headers ?? {});
          res.end(out.body ?? "");
        });
    });
  };
  const plain = createHttpServer(serve(false));
  const secure = createHttpsServer({ cert: tls.certPem, key: tls.keyPem }, serve(true));
  const sockets = new Set<Socket>();
  const front = createNetServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.once("data", (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === 0x16 ? secure : plain).emit("connection", socket);
      process.nextTick(() => socket.resume());
    });
  });
  await new Promise<void>((resolve, reject) => {
    front.once("error", reject);
    front.listen(port, host, () => resolve());
  });
  const address = front.address();
  return {
    port: typeof address === "object" && address ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        plain.closeAllConnections();
        secure.closeAllConnections();
        front.close(() => resolve());
      }),
  };
}
