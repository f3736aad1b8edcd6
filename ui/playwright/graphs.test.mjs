// The spec view's graphs, readable at first sight (issue 13, "The first ten seconds"): every text
// of every node (label, type, hours) at least 12 px on screen at the first zoom (its font size ×
// the viewport's scale), inside its node's box, which is the size dagre laid out; the layout
// direction chosen from the graph's shape (node positions), the view starting at the graph's root
// when it does not fit, the minimap, "Fit" (never below the readable zoom) and "Show all", and axe
// in both themes. Shapes: src/mock/scenarios/graphs.ts (a chain of nine, a fan-out of eight, small).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { expectAxeClean, startHarness } from "./harness.mjs";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const CHAIN_INPUT = "A nine-step onboarding checklist for new hires";
const SMALL_INPUT = "A kitchen timer with presets";
/** 12 px over the nodes' smallest text, the type and hours at 14 px (0.875rem; labels are 16 px),
 * rounded up to a thousandth (graphLayout.readableZoom). */
const READABLE_ZOOM = 0.858;
/** A node's box as dagre lays it out (graphLayout NODE_WIDTH × NODE_HEIGHT). */
const NODE = { width: 200, height: 72 };

async function openGraphs(page, input, title) {
  await page.getByRole("heading", { level: 1, name: "Specs" }).waitFor();
  await page.getByRole("region", { name: "Library" }).getByRole("button", { name: input }).click();
  await page.getByRole("heading", { level: 1, name: title }).waitFor();
  await page.getByRole("tab", { name: "Graphs" }).click();
  const flows = {
    userFlow: page.getByRole("application", { name: "User flow diagram" }),
    architecture: page.getByRole("application", { name: "Architecture diagram" }),
  };
  await flows.userFlow.locator(".react-flow__node").first().waitFor();
  await flows.architecture.locator(".react-flow__node").first().waitFor();
  return flows;
}

/**
 * The flow's viewport transform, its frame, and each node: its box, its drawn box's size in the
 * page's own pixels, and every element inside it with text of its own (the label, the type, the
 * hours): the text, its computed font size, its on-screen box, how much wider its text is than
 * its box (ellipsis), and how much it is drawn scaled. Boxes in page pixels.
 */
async function measure(flow) {
  return flow.evaluate((el) => {
    const viewport = el.querySelector(".react-flow__viewport");
    const m = new DOMMatrixReadOnly(getComputedStyle(viewport).transform);
    const canvas = el.closest(".graph-canvas");
    const box = (e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    const nodes = {};
    for (const n of el.querySelectorAll(".react-flow__node")) {
      const drawn = n.querySelector(".gnode");
      const texts = [...drawn.querySelectorAll("*")]
        .filter((e) => [...e.childNodes].some((c) => c.nodeType === Node.TEXT_NODE && c.textContent.trim() !== ""))
        .map((e) => ({
          text: e.textContent.trim(),
          fontPx: parseFloat(getComputedStyle(e).fontSize),
          box: box(e),
          cut: e.scrollWidth - e.clientWidth,
          // How tall the text's box is on screen, over its height in the page's own pixels.
          drawnScale: e.getBoundingClientRect().height / e.offsetHeight,
        }));
      nodes[n.dataset.id] = { box: box(n), size: { width: drawn.offsetWidth, height: drawn.offsetHeight }, overflow: drawn.scrollHeight - drawn.clientHeight, texts };
    }
    return {
      scale: m.a,
      x: m.e,
      y: m.f,
      direction: canvas.dataset.direction,
      minZoom: Number(canvas.dataset.minZoom),
      frame: box(canvas),
      nodes,
    };
  });
}

const inside = (b, f) => b.x >= f.x - 0.5 && b.y >= f.y - 0.5 && b.x + b.width <= f.x + f.width + 0.5 && b.y + b.height <= f.y + f.height + 0.5;
const outside = (b, f) => b.x >= f.x + f.width || b.x + b.width <= f.x || b.y >= f.y + f.height || b.y + b.height <= f.y;

/**
 * Every text of every node is at least 12 px on screen (its font size times the viewport's scale,
 * and drawn at that scale), whole and inside its node, and each node is the box dagre laid out.
 * Every node of these graphs has a label, a type and hours: three texts, the label 16 px, the
 * type and hours 14 px.
 */
function assertReadable(m, what) {
  for (const [id, n] of Object.entries(m.nodes)) {
    assert.deepEqual(n.size, NODE, `${what}: ${id} is drawn at the size dagre laid out`);
    assert.ok(n.overflow <= 0, `${what}: ${id}'s texts fit its height`);
    assert.equal(n.texts.length, 3, `${what}: ${id} shows its label, type and hours (${n.texts.map((t) => t.text).join(" | ")})`);
    assert.deepEqual(n.texts.map((t) => t.fontPx), [16, 14, 14], `${what}: ${id}'s fonts`);
    for (const t of n.texts) {
      const px = t.fontPx * m.scale;
      assert.ok(px >= 12, `${what}: "${t.text}" in ${id} is ${px} px on screen`);
      assert.ok(Math.abs(t.drawnScale - m.scale) < 0.01, `${what}: "${t.text}" in ${id} is drawn at ${t.drawnScale}, the viewport says ${m.scale}`);
      assert.ok(inside(t.box, n.box), `${what}: "${t.text}" lies inside ${id}`);
      assert.ok(t.cut <= 0, `${what}: "${t.text}" in ${id} is shown whole`);
    }
  }
}

/** Waits (at most the context's timeout) until the viewport's scale is below `zoom` ("below") or exactly it ("at"). */
async function waitForScale(page, flow, how, zoom) {
  const vp = await flow.locator(".react-flow__viewport").elementHandle();
  await page.waitForFunction(
    ([el, how, zoom]) => {
      const s = new DOMMatrixReadOnly(getComputedStyle(el).transform).a;
      return how === "below" ? s < zoom : s === zoom;
    },
    [vp, how, zoom],
  );
}

describe("graphs readable at first sight", () => {
  test("a tall chain of nine is laid out left to right at the readable zoom, starting at its first step", async () => {
    await h.withScenario("graphs-shapes", async ({ page }) => {
      const { userFlow } = await openGraphs(page, CHAIN_INPUT, "Onboarding Checklist");
      const m = await measure(userFlow);
      assert.equal(m.minZoom, READABLE_ZOOM);
      // Fitting nine steps into the frame would need a zoom near 0.37: it stops at the readable one.
      assert.equal(m.scale, READABLE_ZOOM);
      assertReadable(m, "the chain");
      // Left to right (SpecView asks the user flow top to bottom): one row, each step right of the last.
      assert.equal(m.direction, "LR");
      const steps = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"].map((id) => m.nodes[id].box);
      for (let i = 1; i < steps.length; i += 1) {
        assert.ok(Math.abs(steps[i].y - steps[0].y) < 0.5, `step ${i + 1} is on the first step's row`);
        assert.ok(steps[i].x > steps[i - 1].x + steps[i - 1].width, `step ${i + 1} is right of step ${i}`);
      }
      // It starts at the root, 16 px from the frame's left, centred from top to bottom.
      assert.ok(inside(steps[0], m.frame), "the first step is in view");
      assert.ok(Math.abs(steps[0].x - (m.frame.x + 1 + 16)) < 1, `the first step starts 16 px in (at ${steps[0].x - m.frame.x})`);
      assert.ok(outside(steps[8], m.frame), "the last step is further right, out of view");
    });
  });

  test("a wide fan-out of eight is laid out top to bottom at the readable zoom, centred on its root", async () => {
    await h.withScenario("graphs-shapes", async ({ page }) => {
      const { architecture } = await openGraphs(page, CHAIN_INPUT, "Onboarding Checklist");
      const m = await measure(architecture);
      assert.equal(m.scale, READABLE_ZOOM);
      assertReadable(m, "the fan-out");
      // Top to bottom (SpecView asks the architecture left to right): the services in one row under the gateway.
      assert.equal(m.direction, "TB");
      const gw = m.nodes.gw.box;
      const services = ["accounts", "billing", "search", "mail", "files", "reports", "audit", "chat"].map((id) => m.nodes[id].box);
      for (const s of services) {
        assert.ok(s.y > gw.y + gw.height, "each service is below the gateway");
        assert.ok(Math.abs(s.y - services[0].y) < 0.5, "the services share one row");
      }
      assert.equal(new Set(services.map((s) => Math.round(s.x))).size, 8, "the services side by side");
      assert.ok(inside(gw, m.frame), "the gateway is in view");
      const centre = m.frame.x + m.frame.width / 2;
      assert.ok(Math.abs(gw.x + gw.width / 2 - centre) < 1.5, "the gateway is centred across the frame");
      assert.ok(services.some((s) => !inside(s, m.frame)), "a row wider than the frame is not shrunk to fit");
    });
  });

  test("a small graph is shown whole at its natural size, in the direction its kind prefers", async () => {
    await h.withScenario("graphs-shapes", async ({ page }) => {
      const { userFlow, architecture } = await openGraphs(page, SMALL_INPUT, "Kitchen Timer");
      const flow = await measure(userFlow);
      assert.equal(flow.scale, 1);
      assertReadable(flow, "the small user flow");
      assert.equal(flow.direction, "TB");
      const { home, timer, edit } = flow.nodes;
      for (const n of [home, timer, edit]) assert.ok(inside(n.box, flow.frame), "every node is in view");
      assert.ok(timer.box.y > home.box.y + home.box.height && Math.abs(timer.box.y - edit.box.y) < 0.5, "the user flow goes down");

      const arch = await measure(architecture);
      assert.equal(arch.scale, 1);
      assertReadable(arch, "the small architecture");
      assert.equal(arch.direction, "LR");
      const { app, store } = arch.nodes;
      for (const n of [app, store]) assert.ok(inside(n.box, arch.frame), "every node is in view");
      assert.ok(store.box.x > app.box.x + app.box.width && Math.abs(store.box.y - app.box.y) < 0.5, "the architecture goes right");
    });
  });

  test("the minimap and Fit remain: Fit never goes below the readable zoom, Show all may; scrolling pans", async () => {
    await h.withScenario("graphs-shapes", async ({ page }) => {
      const { userFlow } = await openGraphs(page, CHAIN_INPUT, "Onboarding Checklist");
      const minimap = userFlow.getByRole("img", { name: "User flow overview" });
      await minimap.waitFor();
      assert.equal(await minimap.locator(".react-flow__minimap-node").count(), 9);
      const first = await measure(userFlow);

      // Scrolling moves along the chain and keeps the zoom.
      const f = first.frame;
      await page.mouse.move(f.x + f.width / 2, f.y + f.height / 2);
      await page.mouse.wheel(600, 0);
      const vp = await userFlow.locator(".react-flow__viewport").elementHandle();
      await page.waitForFunction(([el, x0]) => new DOMMatrixReadOnly(getComputedStyle(el).transform).e < x0 - 100, [vp, first.x]);
      const scrolled = await measure(userFlow);
      assert.equal(scrolled.scale, READABLE_ZOOM);
      assert.ok(!inside(scrolled.nodes.s1.box, scrolled.frame), "the first step scrolled out of view");

      // Show all: the whole chain in the frame, below the readable zoom.
      await userFlow.getByRole("button", { name: "Show all" }).click();
      await waitForScale(page, userFlow, "below", READABLE_ZOOM);
      const all = await measure(userFlow);
      assert.ok(all.scale < 0.5, `Show all zooms out to ${all.scale}`);
      for (const [id, n] of Object.entries(all.nodes)) assert.ok(inside(n.box, all.frame), `${id} is in view after Show all`);

      // Fit: back to the first view, at the readable zoom.
      await userFlow.getByRole("button", { name: /fit view/i }).click();
      await waitForScale(page, userFlow, "at", READABLE_ZOOM);
      const fitted = await measure(userFlow);
      assert.deepEqual([fitted.scale, fitted.x, fitted.y], [first.scale, first.x, first.y]);
      assertReadable(fitted, "the chain after Fit");

      // The zoom buttons are still there.
      await userFlow.getByRole("button", { name: /zoom in/i }).waitFor();
      await userFlow.getByRole("button", { name: /zoom out/i }).waitFor();
    });
  });

  for (const theme of ["light", "dark"]) {
    test(`axe finds nothing on the graphs (${theme})`, async () => {
      await h.withScenario("graphs-shapes", { theme }, async ({ page }) => {
        const { userFlow } = await openGraphs(page, CHAIN_INPUT, "Onboarding Checklist");
        await userFlow.getByRole("img", { name: "User flow overview" }).waitFor();
        await expectAxeClean(page, `the chain and the fan-out (${theme})`);
        await userFlow.getByRole("button", { name: "Show all" }).click();
        await waitForScale(page, userFlow, "below", READABLE_ZOOM);
        await expectAxeClean(page, `the chain shown whole (${theme})`);
      });
    });
  }
});
