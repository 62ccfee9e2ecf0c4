import type { RawRating } from "./raw-review";

/**
 * Ratings are stored as integers 1 to 5. A rating on another scale is mapped linearly from
 * [worst, best] onto [1, 5], rounded half up and clamped:
 *   rating = clamp(round(1 + (value - worst) * 4 / (best - worst)), 1, 5)
 * So 1–10 gives round(value / 2) for whole numbers, 0–100 (percent) gives 80 → 4, and 4.5 of 5
 * gives 5. Where the page gives no bestRating, the scale is inferred from the value: up to 5 →
 * 1–5 (schema.org's default), up to 10 → 1–10, up to 100 → 0–100. A missing or non-numeric value
 * is no rating (null).
 *
 * Page text is hostile input: a rating text longer than MAX_RATING_TEXT ("4.5 out of 5 stars" is
 * 18) is no rating, and is never handed to a regex. VALUE_OUT_OF_BEST backtracks quadratically on a
 * long run of digits (a 40,000-digit ratingValue took seconds and stalled the whole isolate).
 */
export const MAX_RATING_TEXT = 64;
const NUMBER = /-?\d+(?:[.,]\d+)?/;
const VALUE_OUT_OF_BEST =
  /(-?\d+(?:[.,]\d+)?)\s*(?:\/|out of|of|von|sur|de|su|van|z|из)\s*(\d+(?:[.,]\d+)?)/iu;

function toNumber(value: string | number | undefined): number | null {
  if (value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (value.length > MAX_RATING_TEXT) return null;
  const match = NUMBER.exec(value);
  return match ? Number(match[0].replace(",", ".")) : null;
}

function inferredScale(value: number): { best: number; worst: number } | null {
  if (value <= 5) return { best: 5, worst: 1 };
  if (value <= 10) return { best: 10, worst: 1 };
  if (value <= 100) return { best: 100, worst: 0 };
  return null;
}

export function fiveStarRating(rating: RawRating | undefined): number | null {
  if (!rating) return null;
  let value = toNumber(rating.value);
  let best = toNumber(rating.best);
  if (typeof rating.value === "string" && rating.value.length <= MAX_RATING_TEXT && best === null) {
    // "4/5", "8 out of 10": the scale travels with the value.
    const written = VALUE_OUT_OF_BEST.exec(rating.value);
    if (written) {
      value = Number(written[1].replace(",", "."));
      best = Number(written[2].replace(",", "."));
    }
  }
  if (value === null) return null;
  const scale = best === null ? inferredScale(value) : { best, worst: toNumber(rating.worst) ?? 1 };
  if (!scale || scale.best <= scale.worst) return null;
  const mapped = 1 + ((value - scale.worst) * 4) / (scale.best - scale.worst);
  // The epsilon keeps exact halves (3.5) from rounding down after floating-point noise.
  const rounded = Math.floor(mapped + 0.5 + 1e-9);
  return Math.min(5, Math.max(1, rounded));
}
