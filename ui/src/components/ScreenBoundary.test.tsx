import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { ScreenBoundary } from "./ScreenBoundary";

let broken = true;
function Fragile() {
  if (broken) throw new Error("cannot read 'milestones' of undefined");
  return <p>Screen is back</p>;
}

function Frame() {
  const [area, setArea] = useState("specs");
  return (
    <>
      <button type="button" onClick={() => setArea(area === "specs" ? "plans" : "specs")}>
        Switch
      </button>
      <ScreenBoundary area={area}>{area === "specs" ? <Fragile /> : <p>Plans screen</p>}</ScreenBoundary>
    </>
  );
}

describe("ScreenBoundary", () => {
  it("keeps the frame alive, shows the error, and reloads the screen", () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    broken = true;
    render(<Frame />);
    expect(screen.getByRole("alert").querySelector("h1")?.textContent).toBe("This screen stopped working");
    expect(screen.getByText("Details: cannot read 'milestones' of undefined")).toBeTruthy();
    // The rest of the app still works: another area opens.
    fireEvent.click(screen.getByRole("button", { name: "Switch" }));
    expect(screen.getByText("Plans screen")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Switch" }));
    expect(screen.getByRole("alert")).toBeTruthy();
    broken = false;
    fireEvent.click(screen.getByRole("button", { name: "Reload this screen" }));
    expect(screen.getByText("Screen is back")).toBeTruthy();
    quiet.mockRestore();
  });
});
