// A screen whose code is loaded renders at once, with no fallback; one still loading shows the
// fallback, then itself, and keeps its state from then on.
import { afterEach, describe, expect, it } from "vitest";
import { Component, Suspense, useState, type ReactNode } from "react";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { onDemand, retryFailedLoads } from "./onDemand";

afterEach(cleanup);

function Counter({ name }: { name: string }) {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount((c) => c + 1)}>
      {name} {count}
    </button>
  );
}

/** A loader the test resolves by hand, counting its calls. */
function handLoader() {
  const state: { calls: number; resolve: (screen: typeof Counter) => void } = { calls: 0, resolve: () => undefined };
  const load = () => {
    state.calls += 1;
    return new Promise<typeof Counter>((resolve) => (state.resolve = resolve));
  };
  return { state, load };
}

describe("onDemand", () => {
  it("renders a fetched screen in the first commit, never its fallback", async () => {
    const { state, load } = handLoader();
    const specs = onDemand(load);
    const fetched = specs.fetch();
    state.resolve(Counter);
    await fetched;
    render(
      <Suspense fallback={<p>Opening…</p>}>
        <specs.Screen name="Specs" />
      </Suspense>,
    );
    // Synchronously after render: no fallback was ever committed.
    expect(screen.queryByText("Opening…")).toBeNull();
    expect(screen.getByRole("button").textContent).toBe("Specs 0");
    expect(state.calls).toBe(1);
  });

  it("shows the fallback while loading, then the screen, which keeps its state as later fetches resolve", async () => {
    const { state, load } = handLoader();
    const plans = onDemand(load);
    render(
      <Suspense fallback={<p>Opening…</p>}>
        <plans.Screen name="Plans" />
      </Suspense>,
    );
    expect(screen.getByText("Opening…")).toBeTruthy();
    await act(async () => state.resolve(Counter));
    const button = await screen.findByRole("button");
    fireEvent.click(button);
    expect(button.textContent).toBe("Plans 1");
    await act(() => plans.fetch());
    expect(screen.getByRole("button").textContent).toBe("Plans 1");
    expect(state.calls).toBe(1);
  });

  it("fetches again after a failed fetch, and fetch() never rejects", async () => {
    let calls = 0;
    const gateway = onDemand(() => (++calls === 1 ? Promise.reject(new Error("offline")) : Promise.resolve(Counter)));
    await expect(gateway.fetch()).resolves.toBeUndefined();
    await gateway.fetch();
    expect(calls).toBe(2);
    render(<gateway.Screen name="Gateway" />);
    expect(screen.getByRole("button").textContent).toBe("Gateway 0");
  });

  it("keeps a failed load failed, and loads again once the screen is reloaded", async () => {
    let calls = 0;
    const agents = onDemand(() => (++calls === 1 ? Promise.reject(new Error("offline")) : Promise.resolve(Counter)));
    const seen: string[] = [];
    class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
      state = { failed: false };
      static getDerivedStateFromError() {
        return { failed: true };
      }
      componentDidCatch(e: Error) {
        seen.push(e.message);
      }
      render() {
        return this.state.failed ? <p>Failed</p> : this.props.children;
      }
    }
    const first = render(
      <Boundary>
        <Suspense fallback={<p>Opening…</p>}>
          <agents.Screen name="Agents" />
        </Suspense>
      </Boundary>,
    );
    expect(await screen.findByText("Failed")).toBeTruthy();
    expect(seen).toEqual(["offline"]);
    expect(calls).toBe(1);
    first.unmount();
    retryFailedLoads();
    render(
      <Boundary>
        <Suspense fallback={<p>Opening…</p>}>
          <agents.Screen name="Agents" />
        </Suspense>
      </Boundary>,
    );
    expect((await screen.findByRole("button")).textContent).toBe("Agents 0");
    expect(calls).toBe(2);
  });
});
