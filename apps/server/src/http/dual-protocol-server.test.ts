import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DualProtocolServer } from "./dual-protocol-server";

/** Sends raw bytes in the given pieces, a pause between them, and returns all that comes back. */
function rawExchange(port: number, pieces: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
    socket.on("connect", async () => {
      for (const piece of pieces) {
        socket.write(piece);
        await new Promise((r) => setTimeout(r, 20));
      }
    });
  });
}

function http2Get(port: number, path: string): Promise<{ session: http2.ClientHttp2Session; body: string }> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://127.0.0.1:${port}`);
    session.on("error", reject);
    const stream = session.request({ ":path": path });
    let body = "";
    stream.on("data", (chunk) => {
      body += chunk;
    });
    stream.on("end", () => resolve({ session, body }));
    stream.on("error", reject);
    stream.end();
  });
}

describe("HTTP/1.1 and cleartext HTTP/2 on one port", () => {
  let server: DualProtocolServer;
  let port: number;

  beforeEach(async () => {
    server = new DualProtocolServer({}, (request, response) => {
      response.setHeader("content-type", "text/plain");
      response.end(`HTTP/${request.httpVersion} ${request.url}`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("answers an HTTP/1.1 request whose first bytes arrive one at a time, P as in the HTTP/2 preface", async () => {
    const answer = await rawExchange(port, [
      "P",
      "O",
      "ST /one HTTP/1.1\r\nHost: x\r\n",
      "Connection: close\r\n\r\n",
    ]);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer).toContain("HTTP/1.1 /one");
  });

  it("answers HTTP/2 with prior knowledge, the preface split across packets", async () => {
    const { session, body } = await http2Get(port, "/two");
    expect(body).toBe("HTTP/2.0 /two");
    session.close();
    // The preface alone, in pieces, then nothing: the HTTP/2 server answers with its SETTINGS frame.
    const answer = await new Promise<Buffer>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", async () => {
        for (const piece of ["PRI * HT", "TP/2.0\r\n", "\r\nSM\r\n\r\n"]) {
          socket.write(piece);
          await new Promise((r) => setTimeout(r, 20));
        }
      });
      socket.once("data", (chunk) => {
        socket.destroy();
        resolve(chunk);
      });
    });
    // A frame header: 3 bytes of length, then type 4 (SETTINGS) on stream 0.
    expect(answer[3]).toBe(4);
  });

  it("closes with an HTTP/2 connection still open", async () => {
    const { session } = await http2Get(port, "/three");
    const closed = new Promise((resolve) => session.on("close", resolve));
    await new Promise((resolve) => server.close(resolve));
    await closed;
    // Listening again for afterEach.
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
});
