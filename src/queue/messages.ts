import { z } from "zod";

/**
 * Body of a message on the scrape queue: which task to work on and which of its runs this is
 * (absent on the message submit sends: run 1). See src/app/scrape/lease.ts.
 */
export const ScrapeMessageSchema = z.object({
  task_id: z.string().min(1),
  run: z.number().int().min(1).optional(),
  /**
   * Attempts of this run already spent before this message: a run a consumer took over from its
   * queue's gate without a message (src/app/queue/consumer.ts) and that must be retried is sent with
   * 1 here, so its retries count on from there. Absent: none.
   */
  prior_attempts: z.number().int().min(1).max(100).optional(),
});

export type ScrapeMessage = z.infer<typeof ScrapeMessageSchema>;
