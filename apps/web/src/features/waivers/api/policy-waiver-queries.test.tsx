// @vitest-environment jsdom
import { create } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { Permission } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { type Waiver, WaiverSchema, WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestQueryClient, RpcProviders, serveRoutes } from "@/test-support/router-transport";
import { PolicyWaiversTab } from "../components/policy-waivers-tab";

vi.mock("@/lib/transport", async (importOriginal) =>
  (await import("@/test-support/router-transport")).routedTransportModule(importOriginal),
);

const KEY = "ABCDEFG";

/** A policy with one active waiver, served to an administrator who may cancel it. */
function servePolicy(cancel: (waiver: Waiver) => void) {
  const waivers: Waiver[] = [
    create(WaiverSchema, {
      entity: { id: "w-1" },
      status: WaiverStatus.ACTIVE,
      requester: { name: "Dev Eloper", identifier: "dev@example.test", comment: "hotfix" },
    }),
  ];
  const reads = { list: 0, summary: 0 };
  const count = (status: WaiverStatus) => waivers.filter((w) => w.status === status).length;
  serveRoutes((router: ConnectRouter) => {
    router.service(TenantService, {
      getCurrent: () => ({
        user: { id: "u-1", email: "admin@example.test" },
        permissions: [Permission.WAIVERS_READ, Permission.WAIVERS_UPDATE, Permission.WAIVERS_WRITE],
      }),
    });
    router.service(DeploymentManagerService, {
      getBundle: () => ({ bundle: { bundle: { key: KEY, entity: { id: "b-1" } } } }),
    });
    router.service(WaiverService, {
      list: () => {
        reads.list += 1;
        return { items: waivers.map((w) => ({ ...w })) };
      },
      summary: () => {
        reads.summary += 1;
        return {
          total: waivers.length,
          active: count(WaiverStatus.ACTIVE),
          cancelled: count(WaiverStatus.CANCELLED),
        };
      },
      cancel: ({ target }) => {
        const waiver = waivers.find((w) => target.case === "id" && w.entity?.id === target.value);
        if (!waiver) throw new ConnectError("No such waiver", Code.NotFound);
        cancel(waiver);
        return { waivers: [waiver] };
      },
    });
  });
  return reads;
}

function countOf(label: string) {
  const counts = document.querySelector<HTMLElement>('dl[aria-label="Waiver counts"]');
  if (!counts) throw new Error("no waiver counts");
  const term = within(counts).getByText(label);
  return term.nextElementSibling?.textContent;
}

async function cancelTheWaiver() {
  const row = await screen.findByTestId("waiver-row");
  fireEvent.click(within(row).getByRole("button", { name: "Cancel waiver" }));
  const confirm = screen.getAllByRole("button", { name: "Cancel waiver" }).at(-1) as HTMLElement;
  fireEvent.click(confirm);
}

describe("a policy's waivers tab and its changes", { timeout: 30_000 }, () => {
  // The lists are polled every few seconds; held still, only the change itself can read them again.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("cancelling a waiver reads the list and the counts again", async () => {
    const reads = servePolicy((waiver) => {
      waiver.status = WaiverStatus.CANCELLED;
    });
    render(
      <RpcProviders client={createTestQueryClient()}>
        <PolicyWaiversTab policyId="b-1" />
      </RpcProviders>,
    );
    await screen.findByText("Dev Eloper");
    await waitFor(() => expect(countOf("Active")).toBe("1"));
    expect(reads).toEqual({ list: 1, summary: 1 });

    await cancelTheWaiver();

    await waitFor(() => expect(countOf("Cancelled")).toBe("1"));
    expect(countOf("Active")).toBe("0");
    expect(
      within(screen.getByTestId("waiver-row")).queryByRole("button", { name: "Cancel waiver" }),
    ).toBeNull();
    expect(reads).toEqual({ list: 2, summary: 2 });
  });

  it("shows a refused cancel in a dialog with the server's reason, and reads the list again anyway", async () => {
    const reads = servePolicy(() => {
      throw new ConnectError("The cloud refused to remove the exemption; try again later.", Code.Unavailable);
    });
    render(
      <RpcProviders client={createTestQueryClient()}>
        <PolicyWaiversTab policyId="b-1" />
      </RpcProviders>,
    );
    await screen.findByText("Dev Eloper");

    await cancelTheWaiver();

    const dialog = await screen.findByRole("alertdialog");
    expect(dialog.textContent).toContain("The cloud refused to remove the exemption; try again later.");
    await waitFor(() => expect(reads.list).toBe(2));
    expect(reads.summary).toBe(2);
    expect(countOf("Active")).toBe("1");
  });
});
