/**
 * One JSON object per log line, for the HTTP layer, the queue consumers and the Durable Object alike,
 * so Workers Logs can filter on any field. Callers pass only what is safe to keep: ids, paths,
 * statuses, error names and messages; never request bodies, API keys, cookies or secrets.
 */
export type LogLevel = "info" | "warn" | "error";

export type LogFields = Record<string, string | number | boolean | null | undefined>;

const WRITERS: Record<LogLevel, (line: string) => void> = {
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

export function log(level: LogLevel, message: string, fields: LogFields = {}): void {
  WRITERS[level](JSON.stringify({ level, message, ...fields }));
}

/** An error as a log field: its name and message (never a stack, which may quote data). */
export function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : "non-error thrown";
}
