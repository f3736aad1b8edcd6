// The one credits formatter (issue 24): a charge under 0.005 credits read "0" in Spending and
// "−0" beside the header's balance, which rounded every figure to two decimals.
import { describe, expect, it } from "vitest";
import { formatCredits, formatCreditsWord } from "./format";

describe("formatCredits", () => {
  it("writes a small charge as it is, never as 0", () => {
    expect(formatCredits(0.004)).toBe("0.004");
    expect(formatCredits(0.0004)).toBe("0.0004");
    expect(formatCredits(0.00045)).toBe("0.00045");
    expect(formatCredits(0.0015)).toBe("0.0015");
    expect(formatCredits(0.025)).toBe("0.025");
    expect(formatCredits(0.01)).toBe("0.01");
    // Just under a rounding step: the next figure up, not 0.
    expect(formatCredits(0.00999)).toBe("0.01");
    expect(formatCredits(0.0009999)).toBe("0.001");
    expect(formatCredits(-0.004)).toBe("-0.004");
  });

  it("a change of a balance by a small charge, as the header works it out, is not 0", () => {
    // 10,000 − 9,999.996 is 0.0040000000000873 in floating point.
    expect(formatCredits(Math.abs(9999.996 - 10000))).toBe("0.004");
    expect(formatCredits(Math.abs(41.2 - 41.1996))).toBe("0.0004");
  });

  it("zero is 0, and negative zero too", () => {
    expect(formatCredits(0)).toBe("0");
    expect(formatCredits(-0)).toBe("0");
  });

  it("larger figures: grouped, with up to three decimals and no float noise", () => {
    expect(formatCredits(10000)).toBe("10,000");
    expect(formatCredits(1234.5)).toBe("1,234.5");
    expect(formatCredits(9999.95)).toBe("9,999.95");
    expect(formatCredits(9999.996)).toBe("9,999.996");
    expect(formatCredits(1234.5678)).toBe("1,234.568");
    expect(formatCredits(0.1 + 0.2)).toBe("0.3");
    expect(formatCredits(1)).toBe("1");
    expect(formatCredits(2.5)).toBe("2.5");
  });
});

describe("formatCreditsWord", () => {
  it("says credit for exactly 1 as written, credits otherwise", () => {
    expect(formatCreditsWord(1)).toBe("1 credit");
    expect(formatCreditsWord(0.99999)).toBe("1 credit");
    expect(formatCreditsWord(0)).toBe("0 credits");
    expect(formatCreditsWord(0.004)).toBe("0.004 credits");
    expect(formatCreditsWord(0.0004)).toBe("0.0004 credits");
    expect(formatCreditsWord(23.456)).toBe("23.456 credits");
    expect(formatCreditsWord(10000)).toBe("10,000 credits");
  });
});
