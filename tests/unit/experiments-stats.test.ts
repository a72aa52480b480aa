/**
 * The experiment statistics (app/experiments/stats.ts) against known answers: the closed form
 * for P(one Beta beats another), symmetric cases, and a normal approximation for the bootstrap.
 */
import { describe, expect, it } from "vitest";
import { probabilityBestMean, probabilityBestRate, sampleBeta, sampleGamma, sampleWarning, seededRandom } from "~/experiments/stats";

/** ln Γ(x), Lanczos approximation (g = 7, n = 9): accurate to ~15 digits for x > 0. */
function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = c[0];
  for (let i = 1; i < 9; i++) sum += c[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}
const logBeta = (a: number, b: number) => logGamma(a) + logGamma(b) - logGamma(a + b);

/**
 * P(p_B > p_A) for p_A ~ Beta(aA, bA), p_B ~ Beta(aB, bB), aB a whole number (Evan Miller,
 * "Formulas for Bayesian A/B testing"): the sum over i < aB of
 * B(aA + i, bA + bB) / ((bB + i) B(1 + i, bB) B(aA, bA)).
 */
function probabilityBBeatsA(aA: number, bA: number, aB: number, bB: number): number {
  let total = 0;
  for (let i = 0; i < aB; i++) total += Math.exp(logBeta(aA + i, bA + bB) - Math.log(bB + i) - logBeta(1 + i, bB) - logBeta(aA, bA));
  return total;
}

/** The standard normal CDF (Abramowitz-Stegun 7.1.26 through erf; error < 1.5e-7). */
function normalCdf(x: number): number {
  const t = 1 / (1 + (0.3275911 * Math.abs(x)) / Math.SQRT2);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-(x * x) / 2);
  return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

describe("seeded random numbers", () => {
  it("repeat for a seed, differ between seeds, and stay in [0, 1)", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const first = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(first);
    expect(Array.from({ length: 5 }, seededRandom(43))).not.toEqual(first.slice(0, 5));
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = first.reduce((s, x) => s + x, 0) / first.length;
    expect(mean).toBeCloseTo(0.5, 1);
  });
});

describe("Gamma and Beta draws", () => {
  const moments = (draw: () => number, n = 100_000) => {
    const xs = Array.from({ length: n }, draw);
    const mean = xs.reduce((s, x) => s + x, 0) / n;
    return { mean, variance: xs.reduce((s, x) => s + (x - mean) ** 2, 0) / n };
  };

  it("Gamma(k) has mean and variance k, for shapes below and above 1", () => {
    const random = seededRandom(7);
    for (const shape of [0.5, 1, 3.5, 40]) {
      const { mean, variance } = moments(() => sampleGamma(shape, random));
      expect(mean, `mean of Gamma(${shape})`).toBeCloseTo(shape, shape < 5 ? 1 : 0);
      expect(variance / shape, `variance of Gamma(${shape})`).toBeCloseTo(1, 1);
    }
  });

  it("Beta(a, b) has mean a/(a+b) and variance ab/((a+b)^2 (a+b+1))", () => {
    const random = seededRandom(8);
    for (const [a, b] of [
      [2, 5],
      [1, 1],
      [31, 971],
    ]) {
      const { mean, variance } = moments(() => sampleBeta(a, b, random));
      expect(mean).toBeCloseTo(a / (a + b), 2);
      expect(variance / ((a * b) / ((a + b) ** 2 * (a + b + 1)))).toBeCloseTo(1, 1);
    }
  });
});

describe("probability that a rate is the best (Beta-Binomial)", () => {
  it("equal data: each of two variants ~0.5, each of three ~1/3", () => {
    const two = probabilityBestRate([
      { successes: 50, trials: 1000 },
      { successes: 50, trials: 1000 },
    ]);
    expect(two[0]).toBeCloseTo(0.5, 1);
    expect(Math.abs(two[0] - 0.5)).toBeLessThan(0.02);
    expect(two[0] + two[1]).toBeCloseTo(1, 10);
    const three = probabilityBestRate(Array.from({ length: 3 }, () => ({ successes: 12, trials: 300 })));
    for (const p of three) expect(Math.abs(p - 1 / 3)).toBeLessThan(0.02);
  });

  it("no data at all: uniform priors, a coin toss", () => {
    const [a, b] = probabilityBestRate([
      { successes: 0, trials: 0 },
      { successes: 0, trials: 0 },
    ]);
    expect(Math.abs(a - 0.5)).toBeLessThan(0.02);
    expect(a + b).toBeCloseTo(1, 10);
  });

  it.each([
    [10, 100, 20, 100],
    [5, 50, 7, 50],
    [30, 1000, 40, 1000],
    [3, 10, 1, 12],
    [120, 2400, 100, 2350],
  ])("%i of %i against %i of %i matches the closed form P(Beta(1+a, 1+b) > ...)", (sA, nA, sB, nB) => {
    const analytic = probabilityBBeatsA(1 + sA, 1 + nA - sA, 1 + sB, 1 + nB - sB);
    const [, monteCarlo] = probabilityBestRate(
      [
        { successes: sA, trials: nA },
        { successes: sB, trials: nB },
      ],
      { draws: 200_000, seed: 11 },
    );
    // 200,000 draws: a standard error of at most 0.0011.
    expect(Math.abs(monteCarlo - analytic)).toBeLessThan(0.005);
  });

  it("the closed form itself: symmetric cases are 1/2, a clear winner is near 1", () => {
    expect(probabilityBBeatsA(11, 91, 11, 91)).toBeCloseTo(0.5, 10);
    expect(probabilityBBeatsA(2, 100, 60, 42)).toBeGreaterThan(0.999999);
  });

  it("is the same for the same data and seed (the admin page does not flicker)", () => {
    const arms = [
      { successes: 8, trials: 90 },
      { successes: 14, trials: 95 },
    ];
    expect(probabilityBestRate(arms, { seed: 5 })).toEqual(probabilityBestRate(arms, { seed: 5 }));
  });

  it("refuses counts that cannot be", () => {
    expect(() => probabilityBestRate([{ successes: 5, trials: 3 }])).toThrow(RangeError);
    expect(() => probabilityBestRate([{ successes: -1, trials: 3 }])).toThrow(RangeError);
  });
});

describe("probability that revenue per visitor is the best (bootstrap)", () => {
  const buyers = (count: number, price: number) => Array.from({ length: count }, () => price);

  it("equal data: ~0.5 each", () => {
    const [a, b] = probabilityBestMean([
      { visitors: 1000, values: buyers(40, 59) },
      { visitors: 1000, values: buyers(40, 59) },
    ]);
    expect(Math.abs(a - 0.5)).toBeLessThan(0.03);
    expect(a + b).toBeCloseTo(1, 10);
  });

  it("no revenue anywhere: every resample is a tie, split evenly", () => {
    expect(
      probabilityBestMean([
        { visitors: 500, values: [] },
        { visitors: 400, values: [] },
      ]),
    ).toEqual([0.5, 0.5]);
  });

  it("a variant nobody saw is never best", () => {
    expect(
      probabilityBestMean([
        { visitors: 0, values: [] },
        { visitors: 10, values: [] },
      ]),
    ).toEqual([0, 1]);
  });

  it("agrees with the normal approximation of the difference of means", () => {
    // A: 5% of 2,000 visitors pay $30; B: 6% of 2,000 pay $30. Means 1.5 and 1.8.
    const arms = [
      { visitors: 2000, values: buyers(100, 30) },
      { visitors: 2000, values: buyers(120, 30) },
    ];
    const se = (n: number, k: number) => (900 * (k / n) * (1 - k / n)) / n;
    const expected = normalCdf((1.8 - 1.5) / Math.sqrt(se(2000, 100) + se(2000, 120)));
    const [, b] = probabilityBestMean(arms, { resamples: 20_000, seed: 3 });
    expect(expected).toBeCloseTo(0.917, 2);
    expect(Math.abs(b - expected)).toBeLessThan(0.02);
  });

  it("a lower price that sells more can still lose on revenue", () => {
    // A: 50 of 1,000 pay $59 ($2.95 a visitor); B: 55 of 1,000 pay $49 ($2.70 a visitor).
    const [a, b] = probabilityBestMean([
      { visitors: 1000, values: buyers(50, 59) },
      { visitors: 1000, values: buyers(55, 49) },
    ]);
    const [rateA, rateB] = probabilityBestRate([
      { successes: 50, trials: 1000 },
      { successes: 55, trials: 1000 },
    ]);
    expect(rateB).toBeGreaterThan(rateA);
    expect(a).toBeGreaterThan(b);
  });

  it("a clear difference is near 1, and the same seed gives the same answer", () => {
    const arms = [
      { visitors: 3000, values: buyers(60, 29.99) },
      { visitors: 3000, values: buyers(150, 29.99) },
    ];
    const [, b] = probabilityBestMean(arms, { seed: 9 });
    expect(b).toBeGreaterThan(0.999);
    expect(probabilityBestMean(arms, { seed: 9 })).toEqual(probabilityBestMean(arms, { seed: 9 }));
  });
});

describe("sample-size warning", () => {
  it("asks for enough visitors, then enough purchases, then says nothing", () => {
    expect(
      sampleWarning([
        { name: "A", visitors: 40, purchases: 2 },
        { name: "B", visitors: 120, purchases: 12 },
      ]),
    ).toBe("Too early to call: every variant needs at least 100 visitors (A has 40).");
    expect(
      sampleWarning([
        { name: "A", visitors: 140, purchases: 2 },
        { name: "B", visitors: 120, purchases: 12 },
      ]),
    ).toBe("Too early to call: every variant needs at least 10 purchases (A has 2).");
    expect(
      sampleWarning([
        { name: "A", visitors: 140, purchases: 10 },
        { name: "B", visitors: 120, purchases: 12 },
      ]),
    ).toBeNull();
  });
});
