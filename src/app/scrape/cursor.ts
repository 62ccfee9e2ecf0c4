import { z } from "zod";

/**
 * Where a task's walk continues, stored on the task after every page so that a new run, or the same
 * run after a crash, starts exactly there: the number of the next page and the adapter's own cursor
 * for it (null once the walk is over). The adapter's part is validated with its own schema on read.
 */
export const StoredCursorSchema = z.object({
  page: z.number().int().min(1),
  state: z.unknown(),
  /**
   * The cookies the publisher set during the walk (the run's cookie jar), AES-GCM encrypted like
   * login cookies, so a session or CSRF flow survives into the next run. Absent once the walk is over.
   */
  jar: z.string().optional(),
});

export type StoredCursor = { page: number; state: unknown; jar?: string };
