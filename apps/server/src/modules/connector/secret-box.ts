import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";
const INFO = "palisade/connector-secrets/v1";

/**
 * Encrypts connector secrets at rest: AES-256-GCM under a key derived with HKDF-SHA256 from the
 * server's secret key. The connector id is bound in as associated data, so a ciphertext copied to
 * another connector's row does not decrypt.
 */
export interface SecretBox {
  seal(plaintext: string, connectorId: string): string;
  open(sealed: string, connectorId: string): string;
}

export function createSecretBox(serverKey: string): SecretBox {
  const key = Buffer.from(hkdfSync("sha256", Buffer.from(serverKey, "utf8"), Buffer.alloc(0), INFO, 32));
  return {
    seal(plaintext, connectorId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(connectorId, "utf8"));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".");
    },
    open(sealed, connectorId) {
      const [version, iv, tag, body] = sealed.split(".");
      if (version !== VERSION || !iv || !tag || body === undefined)
        throw new Error("Unreadable connector secret");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(connectorId, "utf8"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
        "utf8",
      );
    },
  };
}
