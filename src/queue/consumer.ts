/** Scrape queue consumer: to be built by the scraping pipeline (issue 3). */
export async function consumeScrapeBatch(batch: MessageBatch<unknown>, _env: Env, _ctx: ExecutionContext): Promise<void> {
  for (const message of batch.messages) message.retry({ delaySeconds: 60 });
}
