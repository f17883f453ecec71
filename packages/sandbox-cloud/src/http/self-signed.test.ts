import { X509Certificate } from "node:crypto";
import { expect, it } from "vitest";
import { createTls } from "./self-signed";

it("issues a server certificate for loopback names signed by the sandbox CA", () => {
  const tls = createTls(["127.0.0.1", "sandbox.internal"]);
  const ca = new X509Certificate(tls.caCertPem);
  const server = new X509Certificate(tls.certPem);
  expect(ca.ca).toBe(true);
  expect(server.ca).toBe(false);
  expect(server.verify(ca.publicKey)).toBe(true);
  expect(server.checkIssued(ca)).toBe(true);
  expect(server.checkIP("127.0.0.1")).toBe("127.0.0.1");
  expect(server.checkIP("::1")).toBe("::1");
  expect(server.checkHost("localhost")).toBe("localhost");
  expect(server.checkHost("sandbox.internal")).toBe("sandbox.internal");
  expect(server.checkHost("example.com")).toBeUndefined();
  expect(new Date(server.validTo).getTime()).toBeGreaterThan(Date.now() + 300 * 86_400_000);
});
