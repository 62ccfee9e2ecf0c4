import { z } from "zod";

/**
 * Where a task's walk continues: the URL of the next page to scrape (null when the walk is over)
 * and that page's number. Stored on the task after every page, so a new run, or the same run after
 * a crash, starts exactly there.
 */
export const CursorSchema = z.object({
  next_url: z.string().nullable(),
  page: z.number().int().min(1),
});

export type Cursor = z.infer<typeof CursorSchema>;

/** The stored cursor, or null before the first page. */
export function storedCursor(value: unknown): Cursor | null {
  const parsed = CursorSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
