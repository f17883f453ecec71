import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";
import { adminEmail, adminPassword, baseURL, port } from "./tests/support/admin";
import { slackApiURL } from "./tests/support/chat";
import { oidcIssuer } from "./tests/support/identity-provider";
import { sandboxPort } from "./tests/support/sandbox";

// Workers load this file again; the variable keeps them on the directory the server was given.
process.env.PALISADE_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), "palisade-e2e-"));

export default defineConfig({
  testDir: "./tests",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "setup", testMatch: /.*\.setup\.ts/ },
    { name: "chromium", use: { browserName: "chromium" }, dependencies: ["setup"] },
  ],
  webServer: {
    command: "npm run -w @palisade/server serve",
    cwd: "..",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    // Start-up (migrations, sandbox, first sync) can take minutes on a busy machine.
    timeout: 300_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      DATA_DIR: process.env.PALISADE_E2E_DATA_DIR,
      PALISADE_ADMIN_EMAIL: adminEmail,
      PALISADE_ADMIN_PASSWORD: adminPassword,
      PUBLIC_URL: baseURL,
      // Tests that need an account of no tenant sign up (and confirm the address from the outbox).
      ALLOW_SIGN_UP: "true",
      // A known address for the tests that act as a cloud user; no simulated background activity.
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_ACTIVITY: "false",
      // Azure's propagation, short enough to watch a guardrail and a waiver go through it.
      SANDBOX_AZURE_PROPAGATION_SECONDS: "8",
      // The organisation trail delivers a call's log file about a second later: late, as
      // CloudTrail's are, short enough for a test to wait for.
      SANDBOX_TRAIL_DELAY_SECONDS: "1",
      // Slack's Web API as the chat approval test's loopback receiver answers it.
      SLACK_API_URL: slackApiURL,
      // The single sign-on test's identity provider, on loopback (a private address needs trusting).
      SSO_TRUSTED_ORIGINS: oidcIssuer,
      // One client address signs in for every test, many times a minute on a fast machine.
      SIGN_IN_RATE_LIMIT_PER_MINUTE: "120",
      // A private build (see the pretest script), so a rebuild of apps/web/dist during a run changes nothing.
      WEB_DIST: new URL(".web-dist", import.meta.url).pathname,
    },
  },
});
