/** Dead-letter consumer: to be built by the scraping pipeline (issue 3). */
export async function consumeDeadLetters(batch: MessageBatch<unknown>, _env: Env): Promise<void> {
  batch.ackAll();
}
