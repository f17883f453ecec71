#!/usr/bin/env node
// Runs the TypeScript sources with the repository's Node through tsx, so `npx palisade` works in a
// fresh clone after `npm ci` without a build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));
