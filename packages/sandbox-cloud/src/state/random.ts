/** Deterministic PRNG (mulberry32) so a seed always yields the same organisation and activity. */
export interface Random {
  next(): number;
  int(maxExclusive: number): number;
  pick<T>(items: readonly T[]): T;
  chars(length: number, alphabet?: string): string;
  digits(length: number): string;
  uuid(): string;
}

const LOWER_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";

export function createRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const chars = (length: number, alphabet = LOWER_ALNUM) => {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[int(alphabet.length)];
    return out;
  };
  return {
    next,
    int,
    pick: <T>(items: readonly T[]) => items[int(items.length)] as T,
    chars,
    digits: (length) => chars(1, "123456789") + chars(length - 1, "0123456789"),
    uuid: () => {
      const h = chars(32, "0123456789abcdef");
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
  };
}
