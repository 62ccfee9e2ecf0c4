/** Body of a message on the scrape queue: which task to work on. */
export interface ScrapeMessage {
  task_id: string;
}

export function isScrapeMessage(body: unknown): body is ScrapeMessage {
  return typeof body === "object" && body !== null && typeof (body as ScrapeMessage).task_id === "string";
}
