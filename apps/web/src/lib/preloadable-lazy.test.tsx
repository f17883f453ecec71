// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { Suspense } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { preloadableLazy } from "./preloadable-lazy";

const Greeting = ({ name }: { name: string }) => <p>Hello {name}</p>;

function renderInSuspense(Component: (props: { name: string }) => React.ReactNode) {
  return render(
    <Suspense fallback={<p>Loading</p>}>
      <Component name="Ada" />
    </Suspense>,
  );
}

describe("preloadableLazy", () => {
  afterEach(cleanup);

  it("shows the component in the first render once its code was preloaded, without the fallback", async () => {
    const Lazy = preloadableLazy(async () => Greeting);
    await Lazy.preload();
    renderInSuspense(Lazy);
    expect(screen.getByText("Hello Ada")).toBeTruthy();
    expect(screen.queryByText("Loading")).toBeNull();
  });

  it("shows the fallback, then the component, when it is rendered before its code arrives", async () => {
    const Lazy = preloadableLazy(async () => Greeting);
    renderInSuspense(Lazy);
    expect(screen.getByText("Loading")).toBeTruthy();
    expect(await screen.findByText("Hello Ada")).toBeTruthy();
  });

  it("loads the code once however often it is preloaded and rendered", async () => {
    const load = vi.fn(async () => Greeting);
    const Lazy = preloadableLazy(load);
    await Promise.all([Lazy.preload(), Lazy.preload()]);
    renderInSuspense(Lazy);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("tries again after a failed load", async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error("chunk gone")).mockResolvedValue(Greeting);
    const Lazy = preloadableLazy(load);
    await expect(Lazy.preload()).rejects.toThrow("chunk gone");
    await act(() => Lazy.preload());
    renderInSuspense(Lazy);
    expect(screen.getByText("Hello Ada")).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
