export interface IpAddress {
  version: 4 | 6;
  bytes: number[];
}

export interface IpRange extends IpAddress {
  prefixLength: number;
}

function parseIpv4(text: string): number[] | undefined {
  const pieces = text.split(".");
  if (pieces.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const piece of pieces) {
    if (!/^\d{1,3}$/.test(piece)) return undefined;
    const value = Number(piece);
    if (value > 255) return undefined;
    bytes.push(value);
  }
  return bytes;
}

function parseIpv6(text: string): number[] | undefined {
  const zoneless = text.split("%")[0]!;
  const halves = zoneless.split("::");
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string): number[] | undefined => {
    if (half === "") return [];
    const bytes: number[] = [];
    const pieces = half.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = parseIpv4(piece);
        if (!v4) return undefined;
        bytes.push(...v4);
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined;
      const value = Number.parseInt(piece, 16);
      bytes.push(value >> 8, value & 0xff);
    }
    return bytes;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return undefined;
  if (halves.length === 1) return head.length === 16 ? head : undefined;
  const gap = 16 - head.length - tail.length;
  if (gap < 2) return undefined;
  return [...head, ...new Array<number>(gap).fill(0), ...tail];
}

export function parseIpAddress(text: string): IpAddress | undefined {
  const trimmed = text.trim();
  if (trimmed.includes(":")) {
    const bytes = parseIpv6(trimmed);
    return bytes ? { version: 6, bytes } : undefined;
  }
  const bytes = parseIpv4(trimmed);
  return bytes ? { version: 4, bytes } : undefined;
}

/** Parses `a.b.c.d/n`, an IPv6 CIDR, or a bare address (a single-host range). */
export function parseIpRange(text: string): IpRange | undefined {
  const [address, prefix, ...rest] = text.trim().split("/");
  if (rest.length > 0 || address === undefined) return undefined;
  const ip = parseIpAddress(address);
  if (!ip) return undefined;
  const maxPrefix = ip.version === 4 ? 32 : 128;
  if (prefix === undefined) return { ...ip, prefixLength: maxPrefix };
  if (!/^\d{1,3}$/.test(prefix)) return undefined;
  const prefixLength = Number(prefix);
  if (prefixLength > maxPrefix) return undefined;
  return { ...ip, prefixLength };
}

/** An IPv4 address written as an IPv4-mapped IPv6 address (::ffff:a.b.c.d) is the same host. */
function asIpv4(ip: IpAddress): IpAddress | undefined {
  if (ip.version === 4) return ip;
  const mapped =
    ip.bytes.slice(0, 10).every((byte) => byte === 0) && ip.bytes[10] === 0xff && ip.bytes[11] === 0xff;
  return mapped ? { version: 4, bytes: ip.bytes.slice(12) } : undefined;
}

export function rangeContains(range: IpRange, address: IpAddress): boolean {
  const candidate = range.version === 4 ? asIpv4(address) : address;
  if (!candidate || candidate.version !== range.version) return false;
  let bits = range.prefixLength;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((range.bytes[i]! & mask) !== (candidate.bytes[i]! & mask)) return false;
  }
  return true;
}
