/** What the benchmark and its server agree on. */
export const DOMAIN = "requesters.example";
export const POLICY_KEY = "BENCH7Q";
/** The public address, which the identity layer takes requests from. */
export const ORIGIN = "http://palisade.bench";
