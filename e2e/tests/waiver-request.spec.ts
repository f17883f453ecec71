import { expect, type Page, type Request, test } from "@playwright/test";
import { adminEmail, adminStorageState, baseURL } from "./support/admin";
import { holdPageCode, pageConsole } from "./support/held-page-code";
import { verificationPathFor } from "./support/outbox";
import { submitSignIn } from "./support/session";
import {
  adminApi,
  awsDenyMessage,
  bundlePolicyName,
  bundlePolicySlug,
  callAsAdmin,
  type DeployedBundle,
  deployWaiverBundle,
} from "./support/waiver-bundle";

const lookupPath = "/palisade.policy.v1.PolicyService/GetBundleByKey";
/** The key lookup, a Connect GET whose request is in the query (the page's head preloads it). */
const isLookup = (url: URL) => url.pathname === lookupPath;
const definitionPath = "/palisade.policy.v1.PolicyService/GetDefinitionBySlug";
const resolvePath = "/palisade.policy.v1.PolicyService/ResolvePolicyKey";
const createPath = "/palisade.waiver.v1.WaiverService/Create";
const scopesPath = "/palisade.policy.v1.PolicyService/ListWaiverScopes";
const reason = "Restoring the audit bucket for INC-4711, requested by Dana";

let bundle: DeployedBundle;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  bundle = await deployWaiverBundle();
});

const card = (page: Page) => page.getByRole("complementary", { name: "Policy information" });

/**
 * Opens the empty page and types the key, so the browser looks it up: a key in the address is
 * looked up by the server, which sends the page with its policy.
 */
async function typeKey(page: Page, key: string) {
  await page.goto("/req");
  await page.getByLabel("Policy Key").fill(key);
}

/** Counts the requests the page makes to one RPC path. */
function countRequests(page: Page, path: string): { readonly count: number; readonly bodies: string[] } {
  const bodies: string[] = [];
  page.on("request", (request: Request) => {
    const url = new URL(request.url());
    // A Connect GET (the key lookup) carries its request in the address.
    if (url.pathname === path) bodies.push(request.postData() ?? url.searchParams.get("message") ?? "");
  });
  return {
    get count() {
      return bodies.length;
    },
    bodies,
  };
}

async function waiversWithComment(comment: string) {
  const api = await adminApi();
  try {
    const { items = [] } = await callAsAdmin<{
      items?: { comment?: string; requester?: { comment?: string }; status?: string; policyKey?: string }[];
    }>(api, "palisade.waiver.v1.WaiverService/List", { filter: { key: bundle.key, comment } });
    return items;
  } finally {
    await api.dispose();
  }
}

test.describe("policy card", () => {
  test("follows the key through every state", async ({ page }) => {
    await page.goto("/req");
    const key = page.getByLabel("Policy Key");
    await expect(card(page)).toContainText("Enter Policy key...");
    await expect(card(page)).toContainText("Policy information will appear here once we validate the ID");

    await key.fill("ABC");
    await expect(card(page)).toContainText("Keep typing...");
    await expect(card(page)).toContainText("Policy keys are 7 characters long (3/7)");
    await key.fill("ABCDEF");
    await expect(card(page)).toContainText("Policy keys are 7 characters long (6/7)");

    await key.fill("ABCDEFGH");
    await expect(card(page)).toContainText("Invalid Policy Key Format");
    await expect(card(page)).toContainText("Policy keys must be exactly 7 characters (currently 8)");

    // No bundle holds this key.
    await key.fill("ZZZZZZZ");
    await expect(card(page)).toContainText("We Couldn't Find Your Policy");
    await expect(card(page)).toContainText("Please make sure you inserted a valid policy ID");

    await key.fill(bundle.key.toLowerCase());
    const found = card(page);
    await expect(found.getByRole("heading", { name: bundlePolicyName })).toBeVisible();
    // The slug stays beneath the name.
    await expect(found.getByText(bundlePolicySlug, { exact: true })).toBeVisible();
    await expect(found.getByText("Feedback Message")).toBeVisible();
    await expect(found).toContainText(`policy key ${bundle.key}`);
    const link = found.getByRole("link", { name: /Blocking public access to your Amazon S3 storage/ });
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("href", /^https:\/\/docs\.aws\.amazon\.com\//);

    await key.fill("");
    await expect(card(page)).toContainText("Enter Policy key...");
  });

  test("a key in the address arrives with its policy in the page, readable before any script runs", async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`/req?k=${bundle.key}`);
      await expect(page.getByRole("heading", { name: "Welcome Guest" })).toBeVisible();
      await expect(card(page).getByRole("heading", { name: bundlePolicyName })).toBeVisible();
      await expect(card(page)).toContainText(`policy key ${bundle.key}`);
      await expect(page.getByLabel("Policy Key")).toHaveValue(bundle.key);
    } finally {
      await context.close();
    }
  });

  test("the page the server sent is taken over as it is: no second lookup, no error, and it answers typing", async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    const lookups = countRequests(page, lookupPath);
    await page.goto(`/req?k=${bundle.key}`);
    await expect(card(page).getByRole("heading", { name: bundlePolicyName })).toBeVisible();
    // The duration's track is drawn filled once the page's code has taken over.
    await expect(page.getByLabel(/Waiver Duration/)).toHaveAttribute("style", /linear-gradient/);
    // Taken over without a mismatch React would report (and then render the page anew).
    expect(errors).toEqual([]);
    // An unknown key, which the browser looks up itself (its 404 the console reports).
    await page.getByLabel("Policy Key").fill("ZZZZZZZ");
    await expect(card(page)).toContainText("We Couldn't Find Your Policy");
    expect(lookups.bodies.map((body) => JSON.parse(body || "{}").key)).toEqual(["ZZZZZZZ"]);
  });

  test("shows a skeleton while the key is looked up", async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(isLookup, async (route) => {
      await held;
      await route.continue();
    });
    await typeKey(page, bundle.key);
    await expect(page.getByLabel("Loading policy information")).toBeVisible();
    release();
    await expect(card(page).getByRole("heading", { name: bundlePolicyName })).toBeVisible();
    await expect(page.getByLabel("Loading policy information")).toBeHidden();
  });

  test("says when the connection fails", async ({ page }) => {
    await page.route(isLookup, (route) => route.abort("internetdisconnected"));
    await typeKey(page, bundle.key);
    await expect(card(page)).toContainText("Connection Error", { timeout: 15_000 });
    await expect(card(page)).toContainText("Please check your internet connection and try again");
  });

  test("says when the further reading cannot be loaded", async ({ page }) => {
    await page.route(`**${definitionPath}`, (route) => route.abort("connectionrefused"));
    await typeKey(page, bundle.key);
    await expect(card(page)).toContainText("Failed to load further reading links", { timeout: 15_000 });
  });

  test("says when the policy has no feedback message or further reading", async ({ page }) => {
    // Every catalogue policy has both; the answers are trimmed to what a custom definition may have.
    await page.route(isLookup, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: { ...body, feedbackMessage: "" } });
    });
    await page.route(`**${definitionPath}`, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: { ...body, furtherReadingUrls: [] } });
    });
    await typeKey(page, bundle.key);
    await expect(card(page)).toContainText("No feedback message available");
    await expect(card(page)).toContainText("No further reading available");
  });

  test("looks a quickly typed key up once, 300 ms after the last keystroke", async ({ page }) => {
    const lookups = countRequests(page, lookupPath);
    await page.goto("/req");
    const key = page.getByLabel("Policy Key");
    await key.pressSequentially(bundle.key, { delay: 40 });
    await expect(card(page).getByRole("heading", { name: bundlePolicyName })).toBeVisible();
    // Nothing more arrives later either.
    await page.waitForTimeout(700);
    expect(lookups.count).toBe(1);
    expect(JSON.parse(lookups.bodies[0] ?? "{}")).toEqual({ key: bundle.key });

    // A key that never passes validation is not looked up.
    await key.fill("");
    await key.pressSequentially("ABCD", { delay: 40 });
    await page.waitForTimeout(700);
    expect(lookups.count).toBe(1);
  });
});

test.describe("form", () => {
  test("validates touched fields only, on every change", async ({ page }) => {
    await page.goto("/req");
    const submit = page.getByRole("button", { name: "Submit" });
    const key = page.getByLabel("Policy Key");
    const comment = page.getByLabel("Waiver Reason");
    await expect(
      page.getByText("Enter the 7 character key you received in the deny message here."),
    ).toBeVisible();
    await expect(submit).toBeDisabled();
    // Untouched: the form is invalid but says nothing yet.
    for (const message of [
      "Policy key is required",
      "Key must be 7 characters long",
      "Comment is required",
      "Comment must not exceed 220 characters",
    ]) {
      await expect(page.getByText(message)).toHaveCount(0);
    }

    await key.focus();
    await key.blur();
    await expect(page.getByText("Policy key is required")).toBeVisible();
    await expect(page.getByText("Comment is required")).toHaveCount(0);
    await key.fill("ABC");
    await expect(page.getByText("Key must be 7 characters long")).toBeVisible();
    // Trimmed before counting.
    await key.fill(`  ${bundle.key}  `);
    await expect(page.getByText("Key must be 7 characters long")).toHaveCount(0);
    await key.fill(`${bundle.key}X`);
    await expect(page.getByText("Key must be 7 characters long")).toBeVisible();
    await key.fill(bundle.key);
    await expect(page.getByText("Key must be 7 characters long")).toHaveCount(0);

    await comment.focus();
    await comment.blur();
    await expect(page.getByText("Comment is required")).toBeVisible();
    await comment.fill("x".repeat(221));
    await expect(page.getByText("Comment must not exceed 220 characters")).toBeVisible();
    await expect(submit).toBeDisabled();
    await comment.fill("x".repeat(220));
    await expect(page.getByText("Comment must not exceed 220 characters")).toHaveCount(0);
    await expect(submit).toBeEnabled();
    await key.fill("");
    await expect(page.getByText("Policy key is required")).toBeVisible();
    await expect(submit).toBeDisabled();
  });

  test("counts the reason's characters as they are typed", async ({ page }) => {
    await page.goto("/req");
    const comment = page.getByLabel("Waiver Reason");
    const counter = page.getByTestId("comment-counter");
    await expect(comment).toHaveAttribute("rows", "10");
    await expect(comment).toHaveAttribute("placeholder", /who requested the waiver.*why/i);
    await expect(counter).toHaveText("0/220");
    await comment.pressSequentially("INC-42");
    await expect(counter).toHaveText("6/220");
    await comment.fill(reason);
    await expect(counter).toHaveText(`${reason.length}/220`);
    await comment.fill("x".repeat(230));
    await expect(counter).toHaveText("230/220");
    // What a person sees: 219 letters and an emoji joined from several code points are 220.
    await comment.fill(`${"x".repeat(219)}\u{1F468}\u200D\u{1F469}\u200D\u{1F467}`);
    await expect(counter).toHaveText("220/220");
    await expect(page.getByText("Comment must not exceed 220 characters")).toHaveCount(0);
  });

  test("keeps the reason and the duration across a reload", async ({ page }) => {
    await page.goto("/req");
    await page.getByLabel("Waiver Reason").fill("INC-42: rotating the account baseline");
    await page.getByRole("slider").focus();
    await page.keyboard.press("ArrowLeft");
    await expect(page.getByText("Waiver Duration: 23 hours")).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Waiver Reason")).toHaveValue("INC-42: rotating the account baseline");
    await expect(page.getByText("Waiver Duration: 23 hours")).toBeVisible();
  });

  test("sets the duration in whole hours from 1 to 72, 24 by default", async ({ page }) => {
    await page.goto("/req");
    const slider = page.getByRole("slider");
    await expect(page.getByText("Waiver Duration: 24 hours")).toBeVisible();
    await expect(slider).toHaveValue("24");
    await expect(slider).toHaveAttribute("min", "1");
    await expect(slider).toHaveAttribute("max", "72");
    await expect(slider).toHaveAttribute("step", "1");
    await slider.focus();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByText("Waiver Duration: 25 hours")).toBeVisible();
    await page.keyboard.press("End");
    await expect(page.getByText("Waiver Duration: 72 hours")).toBeVisible();
    await page.keyboard.press("ArrowRight");
    await expect(slider).toHaveValue("72");
    await page.keyboard.press("Home");
    await expect(page.getByText("Waiver Duration: 1 hour")).toBeVisible();
    await page.keyboard.press("ArrowLeft");
    await expect(slider).toHaveValue("1");
  });

  for (const [query, expected] of [
    ["k=ABCDEFG", "ABCDEFG"],
    ["k=ABCDEFGHIJ", "ABCDEFG"],
    ["k=1234567890", "1234567"],
    ["k=AB", "AB"],
    ["", ""],
  ] as const) {
    test(`prefills the key from ?${query || "nothing"}`, async ({ page }) => {
      await page.goto(`/req?${query}`);
      await expect(page.getByLabel("Policy Key")).toHaveValue(expected);
    });
  }

  test("puts the policy card above the form on a small screen and beside it on a wide one", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/req");
    const cardBox = await card(page).boundingBox();
    const formBox = await page.getByLabel("Policy Key").boundingBox();
    expect(cardBox!.y + cardBox!.height).toBeLessThanOrEqual(formBox!.y);

    await page.setViewportSize({ width: 1280, height: 800 });
    const wideCard = await card(page).boundingBox();
    const wideForm = await page.getByLabel("Policy Key").boundingBox();
    expect(wideForm!.x).toBeLessThan(wideCard!.x);
  });
});

test.describe("pasted deny messages", () => {
  test("an AWS AccessDenied naming the SCP gives the key of the bundle deployed as that SCP", async ({
    page,
    context,
  }) => {
    const deny = await awsDenyMessage(bundle.account);
    const resolves = countRequests(page, resolvePath);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await page.goto("/req");
    const key = page.getByLabel("Policy Key");
    await page.evaluate((text) => navigator.clipboard.writeText(text), deny);
    await key.focus();
    await page.keyboard.press("ControlOrMeta+V");
    await expect(key).toHaveValue(bundle.key);
    await expect(card(page).getByRole("heading", { name: bundlePolicyName })).toBeVisible();
    expect(resolves.count).toBe(1);
  });

  test("an Azure RequestDisallowedByPolicy carries the key itself", async ({ page }) => {
    const resolves = countRequests(page, resolvePath);
    const deny =
      `(RequestDisallowedByPolicy) Resource 'stauditlogs01' was disallowed by policy. Reasons: 'Public ` +
      `network access to storage accounts is blocked by the guardrail "Storage without public access" ` +
      `(policy key ${bundle.key}). Request a time-limited waiver at ${baseURL}/req?k=${bundle.key}'. ` +
      "See error details for policy resource IDs.";
    await page.goto("/req");
    const key = page.getByLabel("Policy Key");
    await key.fill(deny);
    await expect(key).toHaveValue(bundle.key);
    await expect(card(page).getByRole("heading", { name: bundlePolicyName })).toBeVisible();
    expect(resolves.count).toBe(0);
  });

  test("a deny message naming an SCP no deployment was made as says so", async ({ page }) => {
    await page.goto("/req");
    const key = page.getByLabel("Policy Key");
    await key.fill(
      "User: arn:aws:sts::111122223333:assumed-role/dev/jo is not authorized to perform: s3:DeleteBucket " +
        "with an explicit deny in a service control policy: " +
        "arn:aws:organizations::111122223333:policy/o-a1b2c3d4e5/service_control_policy/p-zz99yy88",
    );
    await expect(page.getByText("No policy key was found in the pasted deny message.")).toBeVisible();
    await expect(key).toHaveValue("");
  });
});

test.describe("submitting", () => {
  test.use({ storageState: adminStorageState });

  test("Submit reads Submitting... and is disabled in flight, then the success screen shows", async ({
    page,
  }) => {
    const comment = `${reason} (signed in ${Date.now()})`;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const creates = countRequests(page, createPath);
    await page.route(`**${createPath}`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/req?k=${bundle.key}`);
    await expect(page.getByRole("heading", { name: /^Welcome (?!Guest)/ })).toBeVisible();
    await page.getByLabel("Waiver Reason").fill(comment);
    await page.getByRole("slider").focus();
    await page.keyboard.press("ArrowLeft");
    await expect(page.getByText("Waiver Duration: 23 hours")).toBeVisible();
    await page.getByRole("button", { name: "Submit" }).click();

    const inFlight = page.getByRole("button", { name: "Submitting..." });
    await expect(inFlight).toBeDisabled();
    await inFlight.click({ force: true });
    release();
    // The bundle approves automatically: the specification's words, then the status, scope and end.
    await expect(page.locator('[data-testid="waiver-outcome"][data-status="active"]')).toBeVisible();
    await expect(page.getByRole("heading", { name: "Waiver created successfully!" })).toBeVisible();
    await expect(page.getByText("You can now proceed to implement desired action")).toBeVisible();
    const details = page.getByTestId("waiver-details");
    await expect(details).toContainText("Active");
    await expect(details).toContainText("Scope");
    // The expiry in the viewer's time zone, the zone named.
    await expect(details).toContainText(/Expires.*\d{2}:\d{2}.*(UTC|GMT)/);
    expect(creates.count).toBe(1);
    expect(JSON.parse(creates.bodies[0] ?? "{}")).toMatchObject({
      key: bundle.key,
      duration: String(23 * 3600),
      comment,
      createSource: "WAIVER_CREATE_SOURCE_FORM",
    });

    const listed = await waiversWithComment(comment);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed[0]?.policyKey).toBe(bundle.key);
  });

  test("a reason typed before the page's code has arrived counts once it has: the request sends it", async ({
    page,
  }) => {
    const comment = `${reason} (before the code ${Date.now()})`;
    const creates = countRequests(page, createPath);
    const log = pageConsole(page);
    const release = await holdPageCode(page, "req");
    await page.goto(`/req?k=${bundle.key}`, { waitUntil: "domcontentloaded" });
    // The server's page: the requester's name and the key's policy, before any of its code runs.
    await expect(page.getByRole("heading", { name: /^Welcome (?!Guest)/ })).toBeVisible();
    await page.getByLabel("Waiver Reason").fill(comment);
    // Submit waits for a reason, which only the page's code can tell it has.
    await expect(page.getByRole("button", { name: "Submit" })).toBeDisabled();
    release();
    // The page knows of the reason typed: counted, and Submit ready.
    await expect(page.getByText(`${comment.length}/220`), `${log}`).toBeVisible();
    await expect(page.getByLabel("Waiver Reason")).toHaveValue(comment);
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByRole("heading", { name: "Waiver created successfully!" })).toBeVisible();
    expect(creates.count).toBe(1);
    expect(JSON.parse(creates.bodies[0] ?? "{}")).toMatchObject({ key: bundle.key, comment });
  });

  test("a pending waiver says who decides and turns active without a reload", async ({ page }) => {
    // The server's answers for a MANUAL bundle: Create leaves the waiver PENDING, and GetOwn
    // reports it PENDING until a reviewer approves it.
    const waiver = (status: string) => ({
      entity: { id: "w-pending" },
      policyKey: bundle.key,
      status,
      scope: "Account 111122223333",
      ...(status === "WAIVER_STATUS_ACTIVE"
        ? { expiresAt: new Date(Date.now() + 3_600_000).toISOString() }
        : {}),
    });
    let approved = false;
    let polls = 0;
    await page.route(`**${createPath}`, (route) =>
      route.fulfill({ json: { waiver: waiver("WAIVER_STATUS_PENDING") } }),
    );
    await page.route("**/palisade.waiver.v1.WaiverService/GetOwn", (route) => {
      polls += 1;
      const status = approved ? "WAIVER_STATUS_ACTIVE" : "WAIVER_STATUS_PENDING";
      return route.fulfill({ json: { waiver: waiver(status), tenantName: "Sandbox Tenant" } });
    });
    await page.goto(`/req?k=${bundle.key}`);
    // The signed-in page with the key's policy and the places a waiver may apply, as a requester sees it.
    await expect(page.getByRole("heading", { name: /^Welcome (?!Guest)/ })).toBeVisible();
    await expect(page.getByRole("option", { name: /payments-prod/ })).toBeAttached();
    await page.getByLabel("Waiver Reason").fill(`${reason} (pending ${Date.now()})`);
    await page.getByRole("button", { name: "Submit" }).click();

    await expect(page.locator('[data-testid="waiver-outcome"][data-status="pending"]')).toBeVisible();
    // Created, but not to be acted on yet: no "proceed" while it awaits approval.
    await expect(page.getByRole("heading", { name: "Waiver created successfully!" })).toBeVisible();
    await expect(page.getByText("You can now proceed to implement desired action")).toHaveCount(0);
    await expect(page.getByTestId("waiver-details")).toContainText("Pending approval");
    await expect(
      page.getByText(/It awaits approval by someone with permission to approve waivers in Sandbox Tenant/),
    ).toBeVisible();
    await expect.poll(() => polls, { timeout: 15_000 }).toBeGreaterThan(1);
    approved = true;
    await expect(page.locator('[data-testid="waiver-outcome"][data-status="active"]')).toBeVisible({
      timeout: 15_000,
    });
  });

  test("the waiver's scope is chosen among the policy's accounts, by default the one the deny message names", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    // The success-screen test above left an active waiver on the shared bundle: the action must be
    // denied again for the deny message to exist.
    const admin = await adminApi();
    try {
      await callAsAdmin(admin, "palisade.waiver.v1.WaiverService/Cancel", { policyKey: bundle.key });
    } finally {
      await admin.dispose();
    }
    const deny = await awsDenyMessage(bundle.account);
    const scopeLookups = countRequests(page, scopesPath);
    const creates = countRequests(page, createPath);
    await page.goto("/req");
    // The session is read after the page's first paint.
    await expect(page.getByRole("heading", { name: /^Welcome (?!Guest)/ })).toBeVisible({ timeout: 30_000 });
    const scope = page.getByLabel("Where the waiver applies");
    await expect(scope).toBeHidden();
    await page.getByLabel("Policy Key").fill(deny);
    await expect(page.getByLabel("Policy Key")).toHaveValue(bundle.key);

    // The account of the denied principal is chosen, by name; the id is shown beside it.
    await expect(scope).toHaveValue(bundle.account, { timeout: 30_000 });
    const chosen = (await scope.locator("option:checked").textContent()) ?? "";
    expect(chosen).toMatch(/^[\w-]+ \(Account in Workloads-(Prod|Dev)\)$/);
    await expect(page.getByTestId("waiver-scope")).toContainText(bundle.account);
    // Every account under the bundle's OU is offered, and nothing else.
    const options = (await scope.locator("option").allTextContents()).slice(1);
    expect(options.map((o) => o.replace(/ \(.*\)$/, "")).sort()).toEqual([
      "payments-dev",
      "payments-prod",
      "storefront-dev",
      "storefront-prod",
    ]);
    expect(scopeLookups.count).toBeGreaterThan(0);

    // The policy's settings read by name, not as raw JSON.
    const settings = card(page).getByRole("definition").first();
    await expect(card(page).getByText("Exempt principals")).toBeVisible();
    await expect(settings).toContainText("arn:aws:iam::*:role/BreakGlass");
    // The picker and the settings fit a phone: the page does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(scope).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByLabel("Waiver Reason").fill(`${reason} (one account ${Date.now()})`);
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.locator('[data-testid="waiver-outcome"][data-status="active"]')).toBeVisible();
    // The account by its name, not the picker's whole label nor its id.
    await expect(page.getByTestId("waiver-details")).toContainText(
      `Scope${chosen.replace(/ \(.*\)$/, "")}Expires`,
    );
    expect(JSON.parse(creates.bodies[0] ?? "{}")).toMatchObject({
      key: bundle.key,
      scopeExternalId: bundle.account,
    });

    // Back on the form, "Everywhere" can be chosen again and another account picked by hand.
    await page.getByRole("button", { name: "Request another waiver" }).click();
    await page.getByLabel("Policy Key").fill(bundle.key);
    await expect(scope).toHaveValue("");
    const other = options.find((o) => !o.startsWith(chosen.replace(/ \(.*\)$/, "")));
    await scope.selectOption({ label: other ?? "" });
    await expect(page.getByTestId("waiver-scope")).toContainText(`Only ${other}`);

    // The shared bundle's other tests expect the account denied again.
    const api = await adminApi();
    try {
      const [created] = await waiversWithComment("one account");
      expect(created?.status).toBe("WAIVER_STATUS_ACTIVE");
      await callAsAdmin(api, "palisade.waiver.v1.WaiverService/Cancel", { policyKey: bundle.key });
    } finally {
      await api.dispose();
    }
  });

  test("a refused request shows the failure dialog and Back to Form returns to the filled form", async ({
    page,
  }) => {
    await page.goto("/req?k=ZZZZZZZ");
    await page.getByLabel("Waiver Reason").fill(reason);
    await page.getByRole("slider").focus();
    await page.keyboard.press("End");
    await page.getByRole("button", { name: "Submit" }).click();

    const dialog = page.getByRole("alertdialog");
    await expect(dialog.getByRole("heading", { name: "Couldn't Validate Policy Key" })).toBeVisible();
    await expect(dialog).toContainText("Please validate Policy Key input and try again.");
    await expect(dialog.getByRole("button")).toHaveCount(1);
    await dialog.getByRole("button", { name: "Back to Form" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByLabel("Policy Key")).toHaveValue("ZZZZZZZ");
    await expect(page.getByLabel("Waiver Reason")).toHaveValue(reason);
    await expect(page.getByText("Waiver Duration: 72 hours")).toBeVisible();
    await expect(page.getByRole("button", { name: "Submit" })).toBeEnabled();
  });
});

test("a signed-out member signs in on Submit and comes back to the form as it was", async ({ page }) => {
  const comment = `${reason} (after sign-in ${Date.now()})`;
  await page.goto(`/req?k=${bundle.key}`);
  await expect(page.getByRole("heading", { name: "Welcome Guest" })).toBeVisible();
  await page.getByLabel("Waiver Reason").fill(comment);
  await page.getByRole("slider").focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.getByRole("button", { name: "Submit" }).click();

  // A member whose address is in no requester domain is pointed to the sign-in page.
  const dialog = page.getByRole("dialog", { name: "Confirm your work e-mail" });
  await dialog.getByLabel("Work e-mail").fill(adminEmail);
  await dialog.getByRole("button", { name: "E-mail me a code" }).click();
  await dialog.getByRole("button", { name: "Sign in with an account" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/" && url.search.includes("redirect"));
  await submitSignIn(page);

  await expect(page).toHaveURL((url) => url.pathname === "/req");
  await expect(page.getByRole("heading", { name: /^Welcome (?!Guest)/ })).toBeVisible();
  await expect(page.getByLabel("Policy Key")).toHaveValue(bundle.key);
  await expect(page.getByLabel("Waiver Reason")).toHaveValue(comment);
  await expect(page.getByText("Waiver Duration: 26 hours")).toBeVisible();
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.locator('[data-testid="waiver-outcome"][data-status="active"]')).toBeVisible();
  expect((await waiversWithComment(comment)).length).toBeGreaterThan(0);

  // The form is not restored a second time.
  await page.goto("/req");
  await expect(page.getByLabel("Waiver Reason")).toHaveValue("");
});

test("a signed-in user outside the key's tenant is told why the request is refused", async ({ page }) => {
  const email = `engineer-${Date.now()}@palisade.test`;
  const since = Date.now();
  const signUp = await page.request.post("/api/auth/sign-up/email", {
    data: { email, password: "Engineer-password-1", name: "Jo Engineer" },
    headers: { Origin: baseURL },
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  // The confirmation link signs the new account in.
  await page.goto(await verificationPathFor(email, since));
  await page.goto(`/req?k=${bundle.key}`);
  await expect(page.getByRole("heading", { name: "Welcome Jo Engineer" })).toBeVisible();
  await page.getByLabel("Waiver Reason").fill(reason);
  await page.getByRole("button", { name: "Submit" }).click();

  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByRole("heading", { name: "You Can't Request This Waiver" })).toBeVisible();
  // The server's own explanation, not a generic error.
  await expect(dialog).toContainText("You are not a member of any tenant.");
  await expect(dialog).not.toContainText("Please validate Policy Key input");
  await dialog.getByRole("button", { name: "Back to Form" }).click();
  await expect(page.getByLabel("Waiver Reason")).toHaveValue(reason);
});
