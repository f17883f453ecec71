import { connect, createServer, type Server } from "node:net";

/**
 * A loopback relay to an Organizations endpoint (the sandbox, moto) that resets the connection of
 * a chosen operation's next request: before it reaches the endpoint, or after the endpoint has
 * done it but before its answer is back.
 */
export async function startDroppingRelay(targetPort: number) {
  let drop: { operation: string; when: "before" | "after" } | undefined;
  const seen: string[] = [];
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, "127.0.0.1");
    let dropping = false;
    const close = () => {
      client.resetAndDestroy();
      upstream.destroy();
    };
    client.on("data", (chunk: Buffer) => {
      const operation = /X-Amz-Target: AWSOrganizationsV20161128\.(\w+)/i.exec(chunk.toString("latin1"))?.[1];
      if (operation) seen.push(operation);
      if (operation && drop?.operation === operation) {
        dropping = true;
        const when = drop.when;
        drop = undefined;
        if (when === "before") return close();
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => (dropping ? close() : client.write(chunk)));
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("end", () => upstream.end());
    upstream.on("end", () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    endpoint: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`,
    seen,
    dropNext(operation: string, when: "before" | "after") {
      drop = { operation, when };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type DroppingRelay = Awaited<ReturnType<typeof startDroppingRelay>>;
