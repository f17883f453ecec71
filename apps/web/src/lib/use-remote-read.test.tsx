// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RpcError } from "./rpc-error";
import { forgetRemoteRead, useRemoteRead } from "./use-remote-read";

function Reader({ readKey, load }: { readKey: string | null; load: () => Promise<string> }) {
  const read = useRemoteRead(readKey, load);
  const text = read.isPending
    ? "pending"
    : read.isError
      ? `error ${(read.error as RpcError).code}`
      : read.data;
  return <p>{text}</p>;
}

describe("useRemoteRead", () => {
  afterEach(cleanup);

  it("asks once for a key that several components read, and shows the answer in each", async () => {
    const load = vi.fn(async () => "Deny public buckets");
    render(
      <>
        <Reader readKey="bundle one" load={load} />
        <Reader readKey="bundle one" load={load} />
      </>,
    );
    expect(await screen.findAllByText("Deny public buckets")).toHaveLength(2);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("keeps an answer: a component reading the key again shows it without asking", async () => {
    const load = vi.fn(async () => "Allowed regions");
    render(<Reader readKey="bundle two" load={load} />);
    await screen.findByText("Allowed regions");
    cleanup();
    render(<Reader readKey="bundle two" load={load} />);
    expect(screen.getByText("Allowed regions")).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("shows an answer another try cannot change at once, without asking again", async () => {
    const load = vi.fn(async (): Promise<string> => {
      throw new RpcError("not_found", "No such key");
    });
    render(<Reader readKey="bundle three" load={load} />);
    expect(await screen.findByText("error not_found")).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("asks again once an answer is forgotten, and shows the new one", async () => {
    let answer = "Deny public buckets";
    const load = vi.fn(async () => answer);
    render(<Reader readKey="bundle four" load={load} />);
    await screen.findByText("Deny public buckets");
    answer = "deleted";
    forgetRemoteRead("bundle four");
    expect(await screen.findByText("deleted")).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("asks nothing for a null key and stays pending", () => {
    const load = vi.fn(async () => "never");
    render(<Reader readKey={null} load={load} />);
    expect(screen.getByText("pending")).toBeTruthy();
    expect(load).not.toHaveBeenCalled();
  });
});
