export type TaskEventName = "task.in_progress" | "task.completed" | "task.failed";

/**
 * Queues the webhook notification for a task's transition into 101, 200 or 500 in the account's
 * Durable Object outbox. Idempotent per (task, event): calling it again for the same transition
 * (a redelivered queue message) sends nothing new.
 */
export async function emitTaskEvent(_env: Env, _taskId: string, _event: TaskEventName): Promise<void> {
  // Built with the account outbox (issue 4).
}
