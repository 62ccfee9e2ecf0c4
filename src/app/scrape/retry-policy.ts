/** Deliveries of one message before a transient failure becomes the task's failure. */
export const MAX_ATTEMPTS = 4;

const BASE_DELAY_SECONDS = 15;
const MAX_DELAY_SECONDS = 600;

/**
 * Seconds before the next attempt: 15 s, 45 s, 135 s, ... (times 3 per attempt, at most 10 min),
 * or longer when the publisher asked for it with Retry-After.
 */
export function retryDelaySeconds(attempts: number, retryAfterSeconds?: number): number {
  const backoff = Math.min(BASE_DELAY_SECONDS * 3 ** Math.max(0, attempts - 1), MAX_DELAY_SECONDS);
  return Math.min(Math.max(backoff, retryAfterSeconds ?? 0), MAX_DELAY_SECONDS);
}
