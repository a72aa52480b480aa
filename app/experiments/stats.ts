/**
 * The numbers that judge an experiment: how likely each variant is to be the best one.
 *
 * - Rates (completions, checkouts, purchases per visitor; buyers still doing the routine):
 *   each variant's rate has a Beta(1 + successes, 1 + failures) posterior (a uniform prior
 *   updated by the counts), and the probability that a variant is best is the share of joint
 *   draws from those posteriors in which it has the highest rate (Monte Carlo).
 * - Revenue per visitor, whose distribution is mostly zeros and a few prices: a bootstrap.
 *   Each variant's visitors are resampled with replacement, and the probability that a
 *   variant is best is the share of resamples in which its mean is the highest.
 *
 * Random draws come from a seeded generator, so a page shows the same numbers for the same
 * data and tests are deterministic. Pure: no I/O.
 */

export type RandomSource = () => number;

/**
 * Mulberry32: a small, fast 32-bit generator with a full 2^32 period, good enough for Monte
 * Carlo estimates to a few decimals. Returns numbers in [0, 1).
 */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Marsaglia's polar method). */
function normal(random: RandomSource): number {
  for (;;) {
    const u = 2 * random() - 1;
    const v = 2 * random() - 1;
    const s = u * u + v * v;
    if (s > 0 && s < 1) return u * Math.sqrt((-2 * Math.log(s)) / s);
  }
}

/** A Gamma(shape, 1) draw: Marsaglia and Tsang (2000); shapes below 1 are boosted by U^(1/shape). */
export function sampleGamma(shape: number, random: RandomSource): number {
  if (shape < 1) return sampleGamma(shape + 1, random) * Math.pow(1 - random(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(random);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = 1 - random();
    if (u < 1 - 0.0331 * x * x * x * x) return d * v;
    if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** A Beta(a, b) draw, as X / (X + Y) with X ~ Gamma(a) and Y ~ Gamma(b). */
export function sampleBeta(a: number, b: number, random: RandomSource): number {
  const x = sampleGamma(a, random);
  const y = sampleGamma(b, random);
  return x / (x + y);
}

/** Shares of `rounds` in which each arm won; a tie splits its round between the tied arms. */
function shareOfWins(arms: number, rounds: number, drawRound: (values: number[]) => void): number[] {
  const wins = new Array<number>(arms).fill(0);
  const values = new Array<number>(arms).fill(0);
  for (let round = 0; round < rounds; round++) {
    drawRound(values);
    let best = -Infinity;
    for (const value of values) if (value > best) best = value;
    const tied: number[] = [];
    values.forEach((value, i) => value === best && tied.push(i));
    for (const i of tied) wins[i] += 1 / tied.length;
  }
  return wins.map((w) => w / rounds);
}

export type RateArm = { successes: number; trials: number };

/**
 * For each arm, the probability that its true rate is the highest, given `successes` out of
 * `trials` and a uniform prior: Beta(1 + successes, 1 + trials − successes) posteriors
 * compared over `draws` joint draws.
 */
export function probabilityBestRate(arms: readonly RateArm[], options: { draws?: number; seed?: number } = {}): number[] {
  const { draws = 20_000, seed = 1 } = options;
  if (arms.length === 0) return [];
  for (const arm of arms) {
    if (!Number.isInteger(arm.successes) || !Number.isInteger(arm.trials) || arm.successes < 0 || arm.successes > arm.trials)
      throw new RangeError(`successes must be a whole number from 0 to trials (got ${arm.successes} of ${arm.trials})`);
  }
  const random = seededRandom(seed);
  return shareOfWins(arms.length, draws, (values) => {
    arms.forEach((arm, i) => (values[i] = sampleBeta(1 + arm.successes, 1 + arm.trials - arm.successes, random)));
  });
}

/**
 * One arm for the bootstrap: `visitors` in all, of whom those with a value other than zero
 * are listed in `values` (revenue per visitor: what each buyer paid).
 */
export type MeanArm = { visitors: number; values: readonly number[] };

/**
 * How many of `n` independent trials with probability `p` succeed (Binomial(n, p)), by
 * jumping from success to success with geometric gaps: work in proportion to the successes.
 */
function binomial(n: number, p: number, random: RandomSource): number {
  if (p <= 0 || n <= 0) return 0;
  if (p >= 1) return n;
  const logMiss = Math.log(1 - p);
  let successes = 0;
  let position = 0;
  for (;;) {
    position += Math.floor(Math.log(1 - random()) / logMiss) + 1;
    if (position > n) return successes;
    successes++;
  }
}

/**
 * For each arm, the probability that its mean per visitor is the highest, by bootstrap:
 * `resamples` times, each arm's visitors are drawn again with replacement and the means
 * compared. Drawing n visitors from n of whom k have a value is drawing Binomial(n, k/n) of
 * those k (uniformly, with replacement) and zeros for the rest, which is what is done here,
 * so the cost grows with the buyers, not the visitors.
 */
export function probabilityBestMean(arms: readonly MeanArm[], options: { resamples?: number; seed?: number } = {}): number[] {
  const { resamples = 4_000, seed = 1 } = options;
  if (arms.length === 0) return [];
  for (const arm of arms) {
    if (!Number.isInteger(arm.visitors) || arm.visitors < arm.values.length)
      throw new RangeError(`visitors must be a whole number at least the number of values (got ${arm.visitors} for ${arm.values.length})`);
  }
  const random = seededRandom(seed);
  return shareOfWins(arms.length, resamples, (means) => {
    arms.forEach((arm, i) => {
      if (arm.visitors === 0) {
        // Nobody seen: no evidence this arm is best.
        means[i] = -Infinity;
        return;
      }
      const picked = binomial(arm.visitors, arm.values.length / arm.visitors, random);
      let sum = 0;
      for (let j = 0; j < picked; j++) sum += arm.values[Math.floor(random() * arm.values.length)];
      means[i] = sum / arm.visitors;
    });
  });
}

/**
 * Below these, a difference between variants is mostly noise: the admin says so instead of
 * letting a probability near 0 or 1 on a handful of visitors look like an answer.
 */
export const MIN_VISITORS_PER_VARIANT = 100;
export const MIN_CONVERSIONS_PER_VARIANT = 10;
export const MIN_BUYERS_FOR_RETENTION = 10;

/**
 * Why the numbers cannot be trusted yet, or null when every variant has enough visitors and
 * enough of them bought.
 */
export function sampleWarning(variants: readonly { name: string; visitors: number; purchases: number }[]): string | null {
  const fewVisitors = variants.filter((v) => v.visitors < MIN_VISITORS_PER_VARIANT);
  if (fewVisitors.length)
    return `Too early to call: every variant needs at least ${MIN_VISITORS_PER_VARIANT} visitors (${fewVisitors.map((v) => `${v.name} has ${v.visitors}`).join(", ")}).`;
  const fewBuyers = variants.filter((v) => v.purchases < MIN_CONVERSIONS_PER_VARIANT);
  if (fewBuyers.length)
    return `Too early to call: every variant needs at least ${MIN_CONVERSIONS_PER_VARIANT} purchases (${fewBuyers.map((v) => `${v.name} has ${v.purchases}`).join(", ")}).`;
  return null;
}
