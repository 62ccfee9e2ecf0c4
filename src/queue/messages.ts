import { z } from "zod";

/**
 * Body of a message on the scrape queue: which task to work on and which of its runs this is
 * (absent on the message submit sends: run 1). See src/app/scrape/lease.ts.
 */
export const ScrapeMessageSchema = z.object({
  task_id: z.string().min(1),
  run: z.number().int().min(1).optional(),
});

export type ScrapeMessage = z.infer<typeof ScrapeMessageSchema>;
