import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, waitFor } from "@testing-library/react";
import { KEYSTROKE_MARK, LOCAL_PAINTED_MARK, RUN_MARK, SEARCH_MEASURE, SERVICE_MEASURE, UPDATE_MEASURE, markKeystroke, markSearchRun, useRowsPaintedMark, useSearchPaintedMark } from "./searchTiming";

interface Props {
  search: string;
  pattern?: boolean;
  answer?: unknown;
  failed?: boolean;
}

function Timed({ search, pattern = false, answer, failed = false }: Props) {
  useSearchPaintedMark(search, pattern, answer, failed);
  return null;
}

const measures = (name: string) => performance.getEntriesByName(name, "measure") as PerformanceMeasure[];
const marks = (name: string) => performance.getEntriesByName(name, "mark");
/** Two animation frames and a task: any painted mark scheduled before has been written. */
const frames = () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))));

afterEach(() => {
  cleanup();
  performance.clearMarks();
  performance.clearMeasures();
});

describe("search timing marks", () => {
  it("measures from the keystroke and from the run once the service's answer is on screen, not the page kept meanwhile", async () => {
    markKeystroke("recipe ");
    markSearchRun("recipe", false, true);
    const view = render(<Timed search="recipe" />);
    await frames();
    expect(measures(UPDATE_MEASURE)).toHaveLength(0);

    view.rerender(<Timed search="recipe" answer={{ specs: [] }} />);
    await waitFor(() => expect(measures(SERVICE_MEASURE)).toHaveLength(1));
    const [search] = measures(SERVICE_MEASURE);
    const [update] = measures(UPDATE_MEASURE);
    expect(search?.detail).toEqual({ search: "recipe", pattern: false });
    expect(update?.detail).toEqual({ search: "recipe", pattern: false });
    expect(search?.duration ?? 0).toBeGreaterThanOrEqual(update?.duration ?? Infinity);
    expect(marks(RUN_MARK)).toHaveLength(0);
    expect(marks(KEYSTROKE_MARK)).toHaveLength(0);

    // A later answer to the same search (a refresh) measures nothing more.
    performance.clearMeasures();
    view.rerender(<Timed search="recipe" answer={{ specs: [1] }} />);
    await frames();
    expect(measures(UPDATE_MEASURE)).toHaveLength(0);
  });

  it("measures nothing for an answer to another search", async () => {
    markKeystroke("meal");
    markSearchRun("meal", false, true);
    render(<Timed search="meal" pattern answer={{ specs: [] }} />);
    await frames();
    expect(measures(UPDATE_MEASURE)).toHaveLength(0);
    expect(marks(RUN_MARK)).toHaveLength(1);
  });

  it("a search run by Clear (no keystroke) has only the run's measure", async () => {
    markKeystroke("meal");
    markSearchRun("", false, false);
    render(<Timed search="" answer={{ specs: [] }} />);
    await waitFor(() => expect(measures(UPDATE_MEASURE)).toHaveLength(1));
    expect(measures(SERVICE_MEASURE)).toHaveLength(0);
  });

  it("a refused search forgets its marks", async () => {
    markKeystroke("(");
    markSearchRun("(", true, true);
    render(<Timed search="(" pattern failed />);
    await frames();
    expect(marks(RUN_MARK)).toHaveLength(0);
    expect(marks(KEYSTROKE_MARK)).toHaveLength(0);
    expect(measures(UPDATE_MEASURE)).toHaveLength(0);
  });

  it("measures each keystroke once, when rows for its search are painted (not rows kept from before)", async () => {
    function Rows({ search, rows }: { search: string; rows?: unknown }) {
      useRowsPaintedMark(search, rows);
      return null;
    }
    markKeystroke("reci");
    const view = render(<Rows search="rec" rows={{ specs: [1] }} />);
    await frames();
    expect(measures(SEARCH_MEASURE)).toHaveLength(0);
    view.rerender(<Rows search="reci" />);
    await frames();
    expect(measures(SEARCH_MEASURE)).toHaveLength(0);

    view.rerender(<Rows search="reci" rows={{ specs: [2] }} />);
    await waitFor(() => expect(measures(SEARCH_MEASURE)).toHaveLength(1));
    expect(measures(SEARCH_MEASURE)[0]?.detail).toEqual({ search: "reci" });
    expect(marks(LOCAL_PAINTED_MARK)).toHaveLength(1);
    // The keystroke stays for the service's measure.
    expect(marks(KEYSTROKE_MARK)).toHaveLength(1);

    // The service's rows for the same keystroke replace them: measured once only.
    performance.clearMeasures();
    view.rerender(<Rows search="reci" rows={{ specs: [3] }} />);
    await frames();
    expect(measures(SEARCH_MEASURE)).toHaveLength(0);

    markKeystroke("recip");
    view.rerender(<Rows search="recip" rows={{ specs: [4] }} />);
    await waitFor(() => expect(measures(SEARCH_MEASURE)).toHaveLength(1));
  });
});
