import { generateKeyPairSync, type KeyObject, randomBytes, sign, X509Certificate } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The Azure SDK only sends bearer tokens over https, so the sandbox serves ARM and the token
 * endpoint over TLS with a private CA it creates once per data directory. Clients trust the CA PEM.
 */
export interface SandboxTls {
  caCertPem: string;
  certPem: string;
  keyPem: string;
}

export async function loadOrCreateTls(dataDir: string, hosts: string[]): Promise<SandboxTls> {
  const dir = join(dataDir, "tls");
  const files = { caCertPem: "ca.pem", certPem: "server.pem", keyPem: "server-key.pem" } as const;
  if (Object.values(files).every((f) => existsSync(join(dir, f)))) {
    const tls = {
      caCertPem: await readFile(join(dir, files.caCertPem), "utf8"),
      certPem: await readFile(join(dir, files.certPem), "utf8"),
      keyPem: await readFile(join(dir, files.keyPem), "utf8"),
    };
    const cert = new X509Certificate(tls.certPem);
    const stillValid = new Date(cert.validTo).getTime() > Date.now() + 86_400_000;
    if (stillValid && hosts.every((h) => cert.checkHost(h) || cert.checkIP(h))) return tls;
  }
  const tls = createTls(hosts);
  await mkdir(dir, { recursive: true });
  for (const [key, file] of Object.entries(files)) {
    const tmp = join(dir, `${file}.tmp`);
    await writeFile(tmp, tls[key as keyof SandboxTls], { mode: 0o600 });
    await rename(tmp, join(dir, file));
  }
  return tls;
}

export function createTls(hosts: string[]): SandboxTls {
  const ca = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const server = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const caName = name("Palisade sandbox cloud CA");
  const now = Date.now();
  const caDer = certificate({
    issuer: caName,
    subject: caName,
    publicKey: ca.publicKey,
    signer: ca.privateKey,
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + 10 * 365 * 86_400_000),
    extensions: [
      extension("2.5.29.19", true, seq(bool(true))),
      extension("2.5.29.15", true, bitString(Buffer.from([0x06]), 1)),
    ],
  });
  const sanEntries = [...new Set(["localhost", "127.0.0.1", "::1", ...hosts])].map((h) => {
    const ip = parseIp(h);
    return ip ? tlv(0x87, ip) : tlv(0x82, Buffer.from(h, "ascii"));
  });
  const serverDer = certificate({
    issuer: caName,
    subject: name("Palisade sandbox cloud"),
    publicKey: server.publicKey,
    signer: ca.privateKey,
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + 2 * 365 * 86_400_000),
    extensions: [
      extension("2.5.29.19", true, seq()),
      extension("2.5.29.15", true, bitString(Buffer.from([0x80]), 7)),
      extension("2.5.29.37", false, seq(oid("1.3.6.1.5.5.7.3.1"))),
      extension("2.5.29.17", false, seq(...sanEntries)),
    ],
  });
  return {
    caCertPem: pem("CERTIFICATE", caDer),
    certPem: pem("CERTIFICATE", serverDer),
    keyPem: server.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

interface CertificateInput {
  issuer: Buffer;
  subject: Buffer;
  publicKey: KeyObject;
  signer: KeyObject;
  notBefore: Date;
  notAfter: Date;
  extensions: Buffer[];
}

const ECDSA_SHA256 = () => seq(oid("1.2.840.10045.4.3.2"));

function certificate(input: CertificateInput): Buffer {
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    ECDSA_SHA256(),
    input.issuer,
    seq(time(input.notBefore), time(input.notAfter)),
    input.subject,
    input.publicKey.export({ type: "spki", format: "der" }),
    tlv(0xa3, seq(...input.extensions)),
  );
  const signature = sign("sha256", tbs, input.signer);
  return seq(tbs, ECDSA_SHA256(), bitString(signature, 0));
}

function tlv(tag: number, value: Buffer): Buffer {
  const len = value.length;
  let header: Buffer;
  if (len < 0x80) header = Buffer.from([tag, len]);
  else {
    const bytes: number[] = [];
    for (let n = len; n > 0; n >>= 8) bytes.unshift(n & 0xff);
    header = Buffer.from([tag, 0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([header, value]);
}

const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0]));
const integer = (v: Buffer) => tlv(0x02, v[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), v]) : v);
const bitString = (v: Buffer, unusedBits: number) => tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), v]));
const octetString = (v: Buffer) => tlv(0x04, v);

function oid(dotted: string): Buffer {
  const parts = dotted.split(".").map(Number);
  const bytes = [40 * parts[0]! + parts[1]!];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [part & 0x7f];
    for (let n = part >>> 7; n > 0; n >>>= 7) chunk.unshift((n & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function name(commonName: string): Buffer {
  return seq(tlv(0x31, seq(oid("2.5.4.3"), tlv(0x0c, Buffer.from(commonName, "utf8")))));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? seq(oid(id), bool(true), octetString(value)) : seq(oid(id), octetString(value));
}

function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, "").slice(0, 14);
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`))
    : tlv(0x18, Buffer.from(`${iso}Z`));
}

function parseIp(host: string): Buffer | undefined {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return Buffer.from(host.split(".").map(Number));
  if (!host.includes(":")) return undefined;
  const [head = "", tail = ""] = host.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = host.includes("::") ? [...h, ...Array(8 - h.length - t.length).fill("0"), ...t] : h;
  return Buffer.from(groups.flatMap((g) => [(parseInt(g, 16) >> 8) & 0xff, parseInt(g, 16) & 0xff]));
}

function pem(label: string, der: Buffer): string {
  const b64 = der
    .toString("base64")
    .match(/.{1,64}/g)!
    .join("\n");
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}
